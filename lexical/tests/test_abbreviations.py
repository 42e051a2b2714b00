"""Abbreviations specialists type count as the words they stand for, whole words only."""

import pytest

from lexical.terms import OWN_WEIGHT, query_terms
from lexical.vocabulary import decompounder
from lexical.thesaurus import abbreviations_named, abbreviations_spelled_out


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("PvA opstellen", ["pva"]),
        ("pva opstellen", ["pva"]),
        ("AO", ["ao"]),
        ("BA wil een probleemanalyse", ["ba"]),
        ("collega met ASS", ["ass"]),
        ("mdw met MS haalt het tempo niet meer", ["mdw", "ms"]),
        ("Mijn pa is ziek", []),  # "pa" in lower case is a father, not a problem analysis
        ("de assistent ba-t", []),  # whole words only: not "ass" in "assistent"
        ("het AD-onderzoek", []),  # a hyphenated word is the thesaurus's (lexical/thesaurus.json)
        ("KANS bij een caissière", ["kans"]),
        ("een goede kans op herstel", []),  # "kans" in lower case is a chance, not arm-neck-shoulder complaints
        ("gesprek met de BMW'er", ["bmw"]),
        ("in de ZW na einde contract", ["zw"]),
        ("TIA gehad", ["tia"]),
        ("Tia is de leidinggevende", []),  # a name
        ("EZWB aangevraagd, ERD voor de ZW", ["zw", "erd", "ezwb"]),  # in the order of the file
        ("CANS bij een kassamedewerker", ["cans"]),
        ("Iva is onze planner", []),  # a name, not a full and lasting incapacity
        ("Monteur, ZM dg 4, werkt op TB", ["zm", "tb"]),  # a claim note's sick report and therapeutic basis
        ("tb-patiënt op de afdeling", []),  # lower case is tuberculosis, not a therapeutic basis
    ],
)
def test_it_finds_the_abbreviations_a_text_uses(text, named):
    assert [abbreviation for abbreviation, _ in abbreviations_named(text)] == named


@pytest.mark.django_db
def test_it_counts_what_an_abbreviation_stands_for_as_typed():
    terms = dict(zip(query_terms("PvA opstellen").words, query_terms("PvA opstellen").own))
    assert terms["plan"] and terms["aanpak"] and terms["opstellen"]
    assert not terms["pva"]  # no text of ours writes "PvA": it would only lower the coverage


@pytest.mark.django_db
def test_it_counts_only_the_words_of_a_meaning_our_texts_use():
    terms = query_terms("Verkoopster is ziek, de BA heeft een FML gemaakt")
    own, weights = dict(zip(terms.words, terms.own)), dict(zip(terms.words, terms.weights))
    vocabulary = decompounder().vocabulary
    assert own["bedrijfsarts"]
    for word in ("functionele", "mogelijkhedenlijst", "belastbaarheid"):
        assert weights[word] == OWN_WEIGHT
        assert own[word] == (word in vocabulary)  # a word no text has would only lower the coverage


def test_it_spells_out_abbreviations_for_matchers_that_cannot_know_them():
    assert abbreviations_spelled_out("AD inzetten") == "AD inzetten (arbeidsdeskundige arbeidsdeskundig)"
    assert abbreviations_spelled_out("werknemer met rugpijn") == "werknemer met rugpijn"
