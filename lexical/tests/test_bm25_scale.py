"""BM25F at scale: cached corpus statistics, a match budget for shortlists that leaves the scores of
shortlisted rows exact, and the session settings every connection gets."""

import pytest
from django.conf import settings
from django.db import connection

from lexical import sql as lexical_sql
from lexical.sql import TERMS_CTE, FieldWeights, bm25_cte, bm25_params
from lexical.stats import corpus_stats
from lexical.terms import query_terms
from lexical.vocabulary import vocabulary_clear

pytestmark = pytest.mark.django_db

TEXTS = [
    "rugklachten bij tillen in het magazijn",  # the rare words
    "rugklachten en werkdruk bij de werknemer",
    "werknemer met werkdruk",
    "werknemer op kantoor",
    "werknemer in de zorg",
    "werknemer in het onderwijs",
]


def _scores(query: str, *, shortlist: int = 2) -> dict[int, tuple[float, int]]:
    terms = query_terms(query, synonyms=False)
    cte = bm25_cte("probe", table="scale_probe", weights=FieldWeights(a=1, b=1), shortlist=shortlist)
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {TERMS_CTE}, {cte} SELECT id, score, matched_terms FROM probe", {**terms.params(), **bm25_params("probe", terms=terms, table="scale_probe")})
        return {row[0]: (round(row[1], 9), row[2]) for row in cursor.fetchall()}


@pytest.fixture
def probe_table():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE scale_probe (id int, search_vector tsvector)")
        for number, text in enumerate(TEXTS, start=1):
            cursor.execute("INSERT INTO scale_probe VALUES (%s, to_tsvector('dutch', %s))", [number, text])
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE scale_probe")


def test_it_shortlists_from_the_rarer_terms_and_still_scores_every_term(probe_table, monkeypatch):
    query = "werknemer met rugklachten door tillen"
    exact = _scores(query)
    monkeypatch.setattr(lexical_sql, "SHORTLIST_MATCH_BUDGET", 3)  # "tillen" and "rugklachten" list their rows, "werknemer" not
    budgeted = _scores(query)
    assert set(budgeted) == set(exact) == {1, 2}
    assert budgeted == exact  # "werknemer" still counts in the score of row 2


def test_it_lists_every_terms_matches_without_a_shortlist(probe_table, monkeypatch):
    exact = _scores("werknemer met rugklachten", shortlist=0)
    monkeypatch.setattr(lexical_sql, "SHORTLIST_MATCH_BUDGET", 1)  # the budget only bounds shortlists
    assert _scores("werknemer met rugklachten", shortlist=0) == exact and set(exact) == {1, 2, 3, 4, 5, 6}


def test_it_caches_corpus_statistics_until_the_index_changes(probe_table):
    assert corpus_stats("scale_probe")[0] == 6.0
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO scale_probe VALUES (7, to_tsvector('dutch', 'nog een werknemer'))")
    assert corpus_stats("scale_probe")[0] == 6.0  # cached …
    vocabulary_clear()  # … until this process changes an index
    assert corpus_stats("scale_probe")[0] == 7.0


def test_it_gives_every_connection_the_memory_and_hnsw_settings():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('work_mem'), current_setting('hnsw.ef_search')")
        work_mem, ef_search = cursor.fetchone()
    assert (work_mem, int(ef_search)) == (f"{settings.DATABASE_WORK_MEM_MB}MB", settings.HNSW_EF_SEARCH)
    assert settings.HNSW_EF_SEARCH >= settings.SEARCH_CANDIDATES
