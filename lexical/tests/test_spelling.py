import pytest
from django.db import connection

from lexical.spelling import spelling_variants
from lexical.sql import TERMS_CTE, FieldWeights, bm25_cte, bm25_params
from lexical.terms import query_terms

VARIANTS = [
    ("re-integratieverslag", {"reïntegratieverslag", "reintegratieverslag"}),
    ("reïntegratie", {"re-integratie", "reintegratie"}),
    ("co-ordinatie", {"coördinatie", "coordinatie"}),
    ("coördinatie", {"co-ordinatie", "coordinatie"}),
    ("burn-out", {"burnout"}),
    ("patiënt", {"patient"}),  # a trema inside a stem never becomes a hyphen
    ("financiële", {"financiele"}),
    ("rugklachten", set()),
]


@pytest.mark.parametrize(("word", "variants"), VARIANTS)
def test_it_spells_a_word_with_hyphen_trema_or_neither(word, variants):
    assert spelling_variants(word) == variants


@pytest.mark.django_db  # query_terms splits compounds by the vocabulary of our texts
def test_it_adds_other_spellings_of_typed_words_only_and_never_as_own_words():
    terms = dict(zip(query_terms("re-integratieverslag opstellen").words, query_terms("re-integratieverslag opstellen").own))
    assert terms["re-integratieverslag"] is True
    assert terms["reintegratieverslag"] is False
    assert "burnout" not in query_terms("uitgeput").words  # thesaurus words keep their own spelling


@pytest.mark.django_db
@pytest.mark.parametrize(("query", "text"), [
    ("re-integratieverslag", "Artikel 6 – Inhoud van het reïntegratieverslag"),
    ("reïntegratie", "De werkgever en de werknemer werken mee aan re-integratie."),
    ("coördinatie", "Co-ordinatie van de verzuimbegeleiding."),
])
def test_it_matches_a_passage_written_in_the_other_spelling(query, text):
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE spelling_probe (id int, search_vector tsvector)")
        cursor.execute("INSERT INTO spelling_probe VALUES (1, to_tsvector('dutch', %s)), (2, to_tsvector('dutch', 'iets anders'))", [text])
        terms = query_terms(query, synonyms=False)
        cursor.execute(
            f"WITH {TERMS_CTE}, {bm25_cte('probe', table='spelling_probe', weights=FieldWeights(a=1, b=1))} SELECT id FROM probe",
            {**terms.params(), **bm25_params("probe", terms=terms, table="spelling_probe")},
        )
        assert cursor.fetchall() == [(1,)]


@pytest.mark.django_db
def test_it_lets_the_parts_of_an_unknown_compound_stand_for_it_in_coverage():
    """"kortverzuim" is in none of our texts; "kort" and "verzuim" are, and they are what was typed."""
    terms = query_terms("veel kortverzuim")
    own = dict(zip(terms.words, terms.own))
    assert own["kortverzuim"] is False and own["kort"] is True and own["verzuim"] is True
    known = query_terms("rugklachten")  # a compound our texts contain stays the typed word
    assert dict(zip(known.words, known.own))["rugklachten"] is True
