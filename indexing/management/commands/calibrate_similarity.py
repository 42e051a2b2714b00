"""manage.py calibrate_similarity --model e5 --queries F.jsonl… [--texts N]"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.models import Product
from embeddings.calibration import calibration_fit
from embeddings.encoder import E5_MODEL, USE_MODEL
from guidelines.models import GuidelineChunk
from indexing.texts import chunk_embedding_text, product_embedding_text

MODELS = {"e5": E5_MODEL, "use": USE_MODEL}


class Command(BaseCommand):
    help = "Meet hoe de cosinussen van een model zich verhouden tot die van USE (voor embeddings.selectors.SIMILARITY_SCALES)."

    def add_arguments(self, parser):
        parser.add_argument("--model", choices=sorted(MODELS), required=True)
        parser.add_argument("--reference", choices=sorted(MODELS), default="use")
        parser.add_argument("--queries", type=Path, action="append", required=True, help="JSONL met een veld 'query' per regel (herhaalbaar).")
        parser.add_argument("--texts", type=int, default=400, help="Hoeveel richtlijnpassages naast alle producten (gelijk verdeeld).")

    def handle(self, *args, **options):
        queries = []
        for path in options["queries"]:
            try:
                queries += [json.loads(line)["query"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            except (OSError, ValueError, KeyError) as error:
                raise CommandError(f"{path}: geen JSONL met een veld 'query' per regel ({error})") from None
        texts = [product_embedding_text(p) for p in Product.objects.prefetch_related("intervention_mappings")]
        chunks = list(GuidelineChunk.objects.select_related("document").order_by("id"))
        step = max(1, len(chunks) // max(1, options["texts"]))
        texts += [chunk_embedding_text(chunk) for chunk in chunks[::step]]
        fit = calibration_fit(model=MODELS[options["model"]], reference=MODELS[options["reference"]], queries=queries, texts=texts)
        self.stdout.write(
            f"{MODELS[options['model']]}: offset {fit.offset}, scale {fit.scale} "
            f"({fit.pairs} paren, correlatie met {MODELS[options['reference']]} {fit.correlation})"
        )
