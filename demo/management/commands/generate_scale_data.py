"""manage.py generate_scale_data --products N --passages M: grow the demo data into a large synthetic
catalog and corpus, to measure how search cost grows. Run it against a database of its own:

    EVI_DATA_DIR=.data-scale python manage.py migrate
    EVI_DATA_DIR=.data-scale python manage.py load_demo
    EVI_DATA_DIR=.data-scale python manage.py generate_scale_data --products 10000 --passages 100000
    EVI_DATA_DIR=.data-scale python manage.py benchmark_search --questions search/eval/guideline_questions.jsonl

Products become provider/region variants of the demo products (same texts, links and wijzer lines,
their vector moved slightly); passages are recombined from two existing passages (the first half
of one, the second half of another; the vector is the normalised sum of both). Vectors are derived
from stored ones rather than computed, so 100,000 passages take minutes, not hours. Generated rows
are marked (slug `schaal-…`, source `Schaaltest`) and replaced on every run.
"""

import hashlib
import logging
import math
import random
import time

import numpy as np
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from tqdm import tqdm

from catalog.models import Product
from guidelines.models import GuidelineChunk, GuidelineDocument

logger = logging.getLogger(__name__)

SLUG_PREFIX = "schaal-"
SOURCE = "Schaaltest"
PASSAGES_PER_DOCUMENT = 100
BATCH = 2000
PROVIDERS = ("ArboNed", "Zorg van de Zaak", "HumanCapitalCare", "Arbo Unie", "Perspectief", "365", "Acture", "Re-turn")
REGIONS = (
    "Noord", "Oost", "Zuid", "West", "Randstad", "Groningen", "Utrecht", "Brabant", "Limburg", "Gelderland",
    "Zeeland", "Friesland", "Drenthe", "Overijssel", "Flevoland", "Holland",
)
NOISE = 0.02  # how far a variant's vector moves from its original (cosine stays above ~0.99)


class Command(BaseCommand):
    help = "Maak een grote synthetische catalogus en corpus uit de demo-inhoud, voor schaalmetingen (alleen in een eigen EVI_DATA_DIR)."

    def add_arguments(self, parser):
        parser.add_argument("--products", type=int, required=True, help="Aantal producten in totaal (demo meegeteld).")
        parser.add_argument("--passages", type=int, required=True, help="Aantal passages in totaal (bestaande meegeteld).")
        parser.add_argument("--seed", type=int, default=11)

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        started = time.perf_counter()
        self._clear()
        base_products = list(Product.objects.exclude(embedding=None).order_by("id"))
        base_chunks = list(GuidelineChunk.objects.exclude(embedding=None).order_by("id").values_list("id", "section_path", "article", "content", "embedding", "embedding_model"))
        if not base_products or not base_chunks:
            raise CommandError("Geen producten of passages met embeddings gevonden; draai eerst `load_demo`.")
        products = options["products"] - Product.objects.count()
        passages = options["passages"] - GuidelineChunk.objects.count()
        if products < 0 or passages < 0:
            raise CommandError("Er zijn al meer producten of passages dan gevraagd.")
        self._products(base_products, products, rng)
        self._passages(base_chunks, passages, rng)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE catalog_product; ANALYZE guidelines_guidelinechunk; ANALYZE guidelines_interventionmapping_products")
        self.stdout.write(
            f"Klaar in {time.perf_counter() - started:.0f} s: {Product.objects.count()} producten, "
            f"{GuidelineChunk.objects.count()} passages."
        )

    def _clear(self) -> None:
        with transaction.atomic():
            Product.objects.filter(slug__startswith=SLUG_PREFIX).delete()
            GuidelineDocument.objects.filter(source=SOURCE).delete()

    def _products(self, base: list[Product], count: int, rng: random.Random) -> None:
        noise = np.random.default_rng(rng.randrange(2**32))
        copied = [f.attname for f in Product._meta.concrete_fields if f.attname not in {"id", "name", "slug", "portal_id", "embedding", "search_vector", "created_at", "updated_at"}]
        rows = []
        for number in range(count):
            original = base[number % len(base)]
            provider, region = PROVIDERS[number % len(PROVIDERS)], REGIONS[(number // len(PROVIDERS)) % len(REGIONS)]
            vector = np.asarray(original.embedding, dtype=np.float32)
            moved = vector + noise.normal(0.0, NOISE / math.sqrt(len(vector)), len(vector)).astype(np.float32)
            variant = Product(
                name=f"{original.name} — {provider} {region} {number // (len(PROVIDERS) * len(REGIONS)) + 1}",
                slug=f"{SLUG_PREFIX}{number}",
                embedding=(moved / np.linalg.norm(moved)).tolist(),
                **{name: getattr(original, name) for name in copied},
            )
            rows.append(variant)
        with transaction.atomic():
            for start in tqdm(range(0, len(rows), BATCH), desc="Producten", unit="batch"):
                Product.objects.bulk_create(rows[start : start + BATCH])
            pairs = [(variant.id, base[number % len(base)].id) for number, variant in enumerate(rows)]
            with connection.cursor() as cursor:
                cursor.execute("CREATE TEMP TABLE scale_variant (id bigint, original_id bigint)")
                with cursor.copy("COPY scale_variant (id, original_id) FROM STDIN") as copy:
                    for pair in pairs:
                        copy.write_row(pair)
                # Same texts plus the provider and region in the name; same wijzer lines and guideline links.
                cursor.execute("""
                    UPDATE catalog_product v
                    SET search_vector = o.search_vector || setweight(to_tsvector('dutch', substr(v.name, length(o.name) + 4)), 'A')
                    FROM scale_variant s JOIN catalog_product o ON o.id = s.original_id
                    WHERE v.id = s.id
                """)
                cursor.execute("""
                    INSERT INTO guidelines_interventionmapping_products (interventionmapping_id, product_id)
                    SELECT mp.interventionmapping_id, s.id FROM scale_variant s
                    JOIN guidelines_interventionmapping_products mp ON mp.product_id = s.original_id
                """)
                cursor.execute("""
                    INSERT INTO guidelines_guidelinedocument_products (guidelinedocument_id, product_id)
                    SELECT dp.guidelinedocument_id, s.id FROM scale_variant s
                    JOIN guidelines_guidelinedocument_products dp ON dp.product_id = s.original_id
                """)
                cursor.execute("DROP TABLE scale_variant")

    def _passages(self, base: list[tuple], count: int, rng: random.Random) -> None:
        if count == 0:
            return
        originals = list(GuidelineDocument.objects.exclude(source=SOURCE).values_list("title", "summary", "is_summary", "url"))
        documents = GuidelineDocument.objects.bulk_create(
            GuidelineDocument(
                title=f"{originals[number % len(originals)][0]} (schaaltest {number + 1})",
                source=SOURCE,
                summary=originals[number % len(originals)][1],
                is_summary=originals[number % len(originals)][2],
                url=originals[number % len(originals)][3],
                content_hash=hashlib.sha256(f"schaal {number}".encode()).hexdigest(),
            )
            for number in range(math.ceil(count / PASSAGES_PER_DOCUMENT))
        )
        with _indexes_dropped("guidelines_guidelinechunk", ("chunk_embedding_hnsw", "chunk_search_gin")):
            for start in tqdm(range(0, count, BATCH), desc="Passages", unit="batch"):
                batch = []
                for number in range(start, min(start + BATCH, count)):
                    first, second = rng.choice(base), rng.choice(base)
                    content = f"{first[3][: len(first[3]) // 2]} {second[3][len(second[3]) // 2 :]}".strip()
                    vector = np.asarray(first[4], dtype=np.float32) + np.asarray(second[4], dtype=np.float32)
                    batch.append(GuidelineChunk(
                        document=documents[number // PASSAGES_PER_DOCUMENT],
                        ordinal=number % PASSAGES_PER_DOCUMENT + 1,
                        section_path=first[1],
                        article=first[2],
                        content=content,
                        token_count=len(content.split()),
                        content_hash=hashlib.sha256(content.encode()).hexdigest(),
                        embedding=(vector / max(float(np.linalg.norm(vector)), 1e-9)).tolist(),
                        embedding_model=first[5],
                    ))
                GuidelineChunk.objects.bulk_create(batch)


class _indexes_dropped:
    """Drop the named indexes for a bulk load and build them again after (much faster than
    maintaining an HNSW graph row by row); the definitions are read back from the catalog."""

    def __init__(self, table: str, names: tuple[str, ...]) -> None:
        self.table, self.names, self.definitions = table, names, []

    def __enter__(self):
        with connection.cursor() as cursor:
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s AND indexname = ANY(%s)", [self.table, list(self.names)])
            self.definitions = [row[0] for row in cursor.fetchall()]
            for name in self.names:
                cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
        return self

    def __exit__(self, *exc) -> None:
        with connection.cursor() as cursor:
            # Inside an outer transaction the deferred foreign-key checks of the new rows must run first.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for definition in self.definitions:
                started = time.perf_counter()
                cursor.execute(definition)
                logger.info("rebuilt in %.0f s: %s", time.perf_counter() - started, definition[:80])
