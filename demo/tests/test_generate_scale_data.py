"""The synthetic scale catalog: variants of the demo products and recombined passages, indexed and searchable."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from catalog.models import Product
from guidelines.models import GuidelineChunk, InterventionMapping
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

pytestmark = pytest.mark.django_db


def test_it_grows_the_demo_into_indexed_searchable_variants_and_passages():
    demo_products, demo_passages = Product.objects.count(), GuidelineChunk.objects.count()
    call_command("generate_scale_data", "--products", str(demo_products + 40), "--passages", str(demo_passages + 150), stdout=StringIO())
    assert (Product.objects.count(), GuidelineChunk.objects.count()) == (demo_products + 40, demo_passages + 150)

    variant = Product.objects.filter(slug__startswith="schaal-").order_by("id").first()
    original = Product.objects.exclude(slug__startswith="schaal-").order_by("id").first()
    assert variant.name.startswith(f"{original.name} — ") and variant.description == original.description
    assert set(InterventionMapping.objects.filter(products=variant)) == set(InterventionMapping.objects.filter(products=original))
    assert not Product.objects.filter(search_vector=None).exists() and not Product.objects.filter(embedding=None).exists()
    assert not GuidelineChunk.objects.filter(embedding=None).exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'guidelines_guidelinechunk'")
        assert {"chunk_embedding_hnsw", "chunk_search_gin"} <= {row[0] for row in cursor.fetchall()}
    assert search_run(SearchRequest(query="burn-out, zes maanden thuis", top_k=5)).recommendations

    # Running again replaces the generated rows instead of adding to them.
    call_command("generate_scale_data", "--products", str(demo_products + 40), "--passages", str(demo_passages + 150), stdout=StringIO())
    assert Product.objects.count() == demo_products + 40


def test_it_refuses_to_shrink_the_catalog():
    with pytest.raises(CommandError, match="meer producten of passages"):
        call_command("generate_scale_data", "--products", "1", "--passages", "1")
