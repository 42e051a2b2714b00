import pytest

from lexical.sql import bm25_params, matchable_share
from lexical.terms import query_terms
from search.pipeline.retrieval import PRODUCTS

pytestmark = pytest.mark.django_db


def _share(text: str) -> float:
    terms = query_terms(text, synonyms=False)
    return matchable_share("lexical", terms=terms, params=bm25_params("lexical", terms=terms, **PRODUCTS))


def test_it_counts_the_whole_query_when_every_word_occurs_in_the_catalog():
    assert _share("rugklachten burn-out") == pytest.approx(1.0)


def test_it_leaves_out_words_no_product_contains():
    share = _share("logopedist qzxv rugklachten")
    assert 0.0 < share < 1.0


def test_it_has_nothing_to_match_in_gibberish():
    assert _share("qzxv plmok vrrtq") == 0.0
