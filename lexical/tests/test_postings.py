"""Product postings (catalog.ProductPosting): the database keeps them equal to each product's tsvector,
and BM25F computed from them equals BM25F computed from the tsvector itself."""

import pytest
from django.db import connection

from catalog.models import Product, ProductPosting
from indexing.services import product_index_refresh
from lexical.sql import TERMS_CTE, bm25_cte, bm25_params
from lexical.terms import query_terms
from search.pipeline.retrieval import (
    LEXICAL_SHORTLIST,
    PRODUCT_FIELDS,
    PRODUCT_POSTINGS,
    PRODUCTS,
)

pytestmark = pytest.mark.django_db


def _tsvector_counts(product_id: int) -> dict[str, tuple[int, int, int, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT u.lexeme, count(w) FILTER (WHERE w = 'A'), count(w) FILTER (WHERE w = 'B'),
                      count(w) FILTER (WHERE w = 'C'), count(w) FILTER (WHERE w = 'D')
               FROM catalog_product p CROSS JOIN LATERAL unnest(p.search_vector) u LEFT JOIN LATERAL unnest(u.weights) w ON TRUE
               WHERE p.id = %s GROUP BY u.lexeme""",
            [product_id],
        )
        return {row[0]: tuple(row[1:]) for row in cursor.fetchall()}


def _postings(product_id: int) -> dict[str, tuple[int, int, int, int]]:
    return {p.lexeme: (p.a, p.b, p.c, p.d) for p in ProductPosting.objects.filter(product_id=product_id)}


def _scores(query: str, *, postings) -> dict[int, tuple[float, int, float]]:
    terms = query_terms(query)
    cte = bm25_cte("probe", **PRODUCTS, weights=PRODUCT_FIELDS, shortlist=LEXICAL_SHORTLIST, postings=postings)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {TERMS_CTE}, {cte} SELECT id, score, matched_terms, coverage FROM probe", {**terms.params(), **bm25_params("probe", terms=terms, **PRODUCTS)})
        return {row[0]: (round(row[1], 6), row[2], round(row[3], 6)) for row in cursor.fetchall()}


def test_it_keeps_the_postings_of_every_demo_product_equal_to_its_tsvector():
    products = list(Product.objects.values_list("id", flat=True))
    assert len(products) > 50
    assert [product_id for product_id in products if _postings(product_id) != _tsvector_counts(product_id)] == []


def test_it_rewrites_the_postings_when_a_product_is_indexed_again():
    product = Product.objects.order_by("id").first()
    product.description = "Begeleiding op de werkvloer bij zebrapaden en verkeersregelaars."
    product.save()
    product_index_refresh(product_ids=[product.id], force=True)
    postings = _postings(product.id)
    assert postings["zebrapad"][2] == 1  # the description is field C
    assert postings == _tsvector_counts(product.id)


def test_it_drops_the_postings_of_a_product_without_a_tsvector_or_deleted():
    first, second = Product.objects.order_by("id")[:2]
    Product.objects.filter(id=first.id).update(search_vector=None)
    second.delete()
    assert not ProductPosting.objects.filter(product_id__in=[first.id, second.id]).exists()


@pytest.mark.parametrize(
    "query",
    [
        "rugklachten",
        "zit thuis met stress",
        "Werknemer met burn-out klachten, 6 maanden verzuim, management functie",
        "Baliemedewerker gemeente bedreigd met een mes, sinds het incident twee weken niet gewerkt, nachtmerries",
        "kerstboom kopen, val van de trap, rug en arm, drie weken",  # short lexemes: whole words only
    ],
)
def test_it_scores_a_product_from_its_postings_as_from_its_tsvector(query):
    from_tsvector = _scores(query, postings=None)
    assert from_tsvector
    assert _scores(query, postings=PRODUCT_POSTINGS) == from_tsvector


def test_it_matches_a_short_lexeme_as_a_whole_word_and_a_longer_one_as_a_prefix():
    product = Product.objects.order_by("id").first()
    product.description = "Een coach koppelt de werknemer aan een klachtenregeling."
    product.save()
    product_index_refresh(product_ids=[product.id], force=True)
    for postings in (None, PRODUCT_POSTINGS):
        assert product.id not in _scores("kopen", postings=postings)  # "kop" is no prefix of "koppelt" here
        assert product.id in _scores("klacht", postings=postings)  # "klacht" is of "klachtenregeling"
