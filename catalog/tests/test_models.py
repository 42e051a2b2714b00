import pytest
from django.db import IntegrityError, connection, transaction
from pgvector.django import CosineDistance

from catalog.models import Product
from embeddings.encoder import embed_query
from embeddings.selectors import active_embedding_model

pytestmark = pytest.mark.django_db


def _product(**overrides) -> Product:
    values = {
        "name": "Testproduct",
        "slug": "testproduct",
        "description": "Een test.",
        "category": "Preventie",
        "phase": "preventie",
        "delivery": "online",
    }
    return Product(**{**values, **overrides})


def test_it_refuses_a_second_product_with_the_same_name():
    _product().save()
    with pytest.raises(IntegrityError), transaction.atomic():
        _product(slug="andere-slug").save()


def test_it_refuses_an_unknown_url_status_in_the_database():
    with pytest.raises(IntegrityError), transaction.atomic():
        _product(url_status="maybe").save()


def test_it_refuses_an_absence_window_that_ends_before_it_starts():
    with pytest.raises(IntegrityError), transaction.atomic():
        _product(absence_weeks_min=10, absence_weeks_max=2).save()


def test_it_finds_the_nearest_product_by_cosine_distance():
    query = embed_query("Traject van 6 tot 9 maanden voor herstel na een burn-out", model=active_embedding_model())
    nearest = Product.objects.exclude(embedding=None).order_by(CosineDistance("embedding", query.tolist()))[:5]
    assert "Herstelcoaching" in [p.name for p in nearest]


def test_it_uses_the_hnsw_index_for_knn():
    query = embed_query("rugklachten", model=active_embedding_model()).tolist()
    queryset = Product.objects.order_by(CosineDistance("embedding", query))[:10]
    with connection.cursor() as cursor:
        # The demo table is small enough that the planner may prefer a scan; the index must still serve the query shape.
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = queryset.explain()
    assert "product_embedding_hnsw" in plan


def test_it_matches_plural_dutch_words_in_full_text_search():
    from django.contrib.postgres.search import SearchQuery

    found = Product.objects.filter(search_vector=SearchQuery("werknemers", config="dutch", search_type="websearch"))
    assert found.exists()
    singular = Product.objects.filter(search_vector=SearchQuery("werknemer", config="dutch", search_type="websearch"))
    assert set(found.values_list("id", flat=True)) == set(singular.values_list("id", flat=True))
