"""manage.py reindex_embeddings [--model e5|use|openai] [--background] [--status]"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from embeddings.encoder import (
    E5_MODEL,
    USE_MODEL,
    UnknownModelError,
    configured_model,
    encoder_for,
    openai_model_name,
)
from embeddings.selectors import IndexStatus, index_status
from indexing.reindex import ReindexBusyError, reindex_run
from indexing.tasks import reindex_embeddings
from jobs.queue import enqueue

MODELS = {"e5": E5_MODEL, "use": USE_MODEL, "openai": None}


class Command(BaseCommand):
    help = (
        "Bereken alle embeddings (producten, interventiewijzer, richtlijnpassages) opnieuw met een ander model. "
        "Zoeken blijft werken met het huidige model tot alles klaar is; een onderbroken run gaat verder waar hij was."
    )

    def add_arguments(self, parser):
        parser.add_argument("--model", choices=sorted(MODELS), help="Doelmodel (standaard: EMBEDDING_BACKEND).")
        parser.add_argument("--background", action="store_true", help="Laat de Celery-worker het doen; volg de voortgang met --status.")
        parser.add_argument("--status", action="store_true", help="Toon welk model actief is en hoe ver een herindexering is.")

    def handle(self, *args, **options):
        if options["status"]:
            self.stdout.write(_describe(index_status()))
            return
        model = _target(options["model"])
        try:
            encoder_for(model)
        except UnknownModelError:
            raise CommandError(f"Model {model} is niet beschikbaar in deze configuratie (ontbreekt EMBEDDING_API_KEY?).") from None
        status = index_status()
        if status.active_model == model and not status.reindexing:
            self.stdout.write(f"De zoekindex gebruikt al {model}; niets te doen.")
            return
        if options["background"]:
            enqueue(reindex_embeddings, model)
            self.stdout.write(f"Herindexering naar {model} gestart op de achtergrond; zoeken blijft werken. Voortgang: manage.py reindex_embeddings --status")
            return
        try:
            with tqdm(desc=f"Herindexeren ({model})", unit="tekst", disable=options["verbosity"] == 0) as bar:
                status = reindex_run(model=model, progress=lambda s: _advance(bar, s))
        except ReindexBusyError:
            raise CommandError(f"Er loopt al een herindexering naar {model}; volg die met --status.") from None
        self.stdout.write(self.style.SUCCESS(f"De zoekindex gebruikt nu {status.active_model}."))


def _target(choice: str | None) -> str:
    if choice is None:
        return configured_model()
    return MODELS[choice] or openai_model_name(settings.EMBEDDING_MODEL)


def _advance(bar: tqdm, status: IndexStatus) -> None:
    bar.total = status.total
    bar.n = status.done if status.reindexing else status.total
    bar.refresh()


def _describe(status: IndexStatus) -> str:
    lines = [f"Actief model: {status.active_model}"]
    if status.reindexing:
        lines.append(f"Herindexering naar {status.target_model}: {status.done} van {status.total} ({status.percent}%)")
    if status.error:
        lines.append(f"Laatste fout: {status.error}")
    if not status.reindexing and status.active_model != configured_model():
        lines.append(f"Ingesteld model {configured_model()} is nog niet actief: start manage.py reindex_embeddings")
    return "\n".join(lines)
