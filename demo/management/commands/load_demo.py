"""manage.py load_demo: the demo catalog, guideline corpus and interventiewijzer (idempotent)."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from catalog.models import Product
from catalog.services import ProductImportError, product_import
from guidelines.models import GuidelineChunk, GuidelineDocument, InterventionMapping
from guidelines.services import (
    IngestionError,
    MappingImportError,
    document_ingest,
    guideline_file_read,
    mapping_import,
    product_guidelines_link,
)
from indexing.services import mapping_index_refresh, product_index_refresh
from indexing.signals import indexing_suspended
from search.models import ReferenceQuestion, ReferenceSituation
from search.reference_situations import (
    ReferenceLoadError,
    reference_questions_load,
    reference_situations_load,
)

DEMO_DATA = settings.BASE_DIR / "demo" / "data"
PRODUCTS_FILE = DEMO_DATA / "products.json"
WIJZER_FILE = DEMO_DATA / "wijzer.json"
PRODUCT_GUIDELINES_FILE = DEMO_DATA / "product_guidelines.json"
CORPUS_DIR = DEMO_DATA / "corpus"
# The judged sets that stage 2 learns from: every situation set in search/eval except the out-of-domain one.
REFERENCE_SETS = sorted((settings.BASE_DIR / "search" / "eval").glob("judged_situations*.jsonl")) + [
    settings.BASE_DIR / "search" / "eval" / "short_phrasings.jsonl"
]
# The judged law questions, those on the guidelines' sections (guideline_questions_*), and those on the edge of
# the corpus or outside it: their law articles count only once those laws are ingested (ingest_guidelines).
REFERENCE_QUESTION_SETS = sorted(
    path
    for pattern in ("law_questions*.jsonl", "guideline_questions_*.jsonl", "unanswerable_questions*.jsonl", "guideline_boundary_questions.jsonl")
    for path in (settings.BASE_DIR / "search" / "eval").glob(pattern)
)


class Command(BaseCommand):
    help = "Laad de demo-catalogus, het demo-richtlijnencorpus en de interventiewijzer. Een tweede keer wijzigt niets."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Alleen laden als er nog geen producten zijn.")

    def handle(self, *args, **options):
        if options["if_empty"] and Product.objects.exists():
            self.stdout.write("Database bevat al producten; demodata niet opnieuw geladen.")
            return
        try:
            # One bulk refresh at the end instead of a re-index task per imported row.
            with indexing_suspended():
                self._load(quiet=options["verbosity"] == 0)
        except (ProductImportError, MappingImportError, IngestionError, ReferenceLoadError) as error:
            raise CommandError(str(error)) from None

    def _load(self, *, quiet: bool) -> None:
        products = product_import(rows=_read_json(PRODUCTS_FILE))
        mappings = mapping_import(rows=_read_json(WIJZER_FILE))
        manifest = [entry for path in sorted(CORPUS_DIR.glob("manifest*.json")) for entry in _read_json(path)]
        documents = {"aangemaakt": 0, "vervangen": 0, "ongewijzigd": 0}
        for entry in tqdm(manifest, desc="Richtlijnen", unit="document", disable=quiet):
            result = document_ingest(
                title=entry["title"],
                source=entry["source"],
                url=entry.get("url", ""),
                summary=entry.get("summary", ""),
                texts=[guideline_file_read(CORPUS_DIR / entry["file"])],
                replace=True,
                is_summary=True,  # the demo corpus is written by the team, in its own words
            )
            documents[result.status] += 1
        links = product_guidelines_link(links=_read_json(PRODUCT_GUIDELINES_FILE)["products"])
        mapping_index_refresh(mapping_ids=mappings.changed_mapping_ids)
        mapping_index_refresh(only_missing=True)
        reindexed = product_index_refresh()
        references = [reference_situations_load(path=path) for path in REFERENCE_SETS]
        references += [reference_questions_load(path=path) for path in REFERENCE_QUESTION_SETS]

        self.stdout.write(
            f"Producten: {Product.objects.count()} ({len(products.created)} nieuw, {len(products.updated)} bijgewerkt, "
            f"{products.unchanged} ongewijzigd; {reindexed} opnieuw geïndexeerd)\n"
            f"Richtlijndocumenten: {GuidelineDocument.objects.count()} ({documents['aangemaakt']} nieuw, "
            f"{documents['vervangen']} vervangen, {documents['ongewijzigd']} ongewijzigd)\n"
            f"Passages: {GuidelineChunk.objects.count()} "
            f"(zonder embedding: {GuidelineChunk.objects.filter(embedding__isnull=True).count()})\n"
            f"Interventiewijzer-regels: {InterventionMapping.objects.count()} ({len(mappings.changed_mapping_ids)} gewijzigd)\n"
            f"Koppelingen product–richtlijn: {GuidelineDocument.products.through.objects.count()} ({links} nieuw)\n"
            f"Producten zonder embedding: {Product.objects.filter(embedding__isnull=True).count()}\n"
            f"Beoordeelde situaties en richtlijnvragen: {ReferenceSituation.objects.count()} en {ReferenceQuestion.objects.count()} "
            f"({sum(r.created for r in references)} nieuw, {sum(r.updated for r in references)} bijgewerkt)"
        )


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CommandError(f"Demobestand ontbreekt: {path}") from None
    except json.JSONDecodeError as error:
        raise CommandError(f"Demobestand is geen geldige JSON ({path}, regel {error.lineno}): {error.msg}") from None
