"""manage.py ingest_guidelines PATH… --title T --source S [--url U] [--replace]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from guidelines.services import IngestionError, document_ingest, guideline_file_read


class Command(BaseCommand):
    help = "Lees een richtlijn (Markdown of platte tekst) in als één document, gesplitst op koppen en wetsartikelen."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, help="Eén of meer bestanden die samen het document vormen.")
        parser.add_argument("--title", required=True, help="Titel van het document.")
        parser.add_argument("--source", required=True, help="Bron, bijvoorbeeld NVAB, UWV, Arbowet.")
        parser.add_argument("--url", default="", help="Openbare vindplaats van het document.")
        parser.add_argument("--summary", default="", help="Korte samenvatting (optioneel).")
        parser.add_argument("--replace", action="store_true", help="Vervang een bestaand document met andere inhoud.")

    def handle(self, *args, **options):
        try:
            texts = [guideline_file_read(path) for path in options["paths"]]
            with tqdm(desc="Passages embedden", unit="passage", disable=options["verbosity"] == 0) as bar:
                result = document_ingest(
                    title=options["title"],
                    source=options["source"],
                    url=options["url"],
                    summary=options["summary"],
                    texts=texts,
                    replace=options["replace"],
                    progress=lambda done, total: _advance(bar, done, total),
                )
        except IngestionError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            self.style.SUCCESS(f"{result.document.title}: {result.status}, {result.chunk_count} passages.")
        )


def _advance(bar: tqdm, done: int, total: int) -> None:
    bar.total = total
    bar.update(done)
