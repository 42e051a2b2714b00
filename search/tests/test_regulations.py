"""Regulations a guideline question names by their own name, and whether the corpus holds them."""

import pytest

from guidelines.models import GuidelineDocument
from search.pipeline.regulations import regulations_named, regulations_not_held


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Welke brandwerendheid eist het Bouwbesluit?", ["Bouwbesluit"]),
        ("CE-markering onder de Machinerichtlijn", ["Machinerichtlijn"]),
        ("Valt dit onder de Warenwet of de Omgevingswet?", ["Warenwet", "Omgevingswet"]),
        ("Wat zegt de NVAB-richtlijn over opbouw?", ["NVAB-richtlijn"]),
        ("rijtijdenverordening chauffeurs", ["rijtijdenverordening"]),
        # no regulation: the law in general, a word that only begins like one, an arrangement
        ("Wat is volgens de wet de minimale rust per week?", []),
        ("Welke wetgeving geldt voor nachtwerk?", []),
        ("Hoe vaak mag een consignatieregeling ingaan?", []),
    ],
)
def test_it_finds_the_regulations_a_question_names(question, names):
    assert [name for name, _, _ in regulations_named(question)] == names


@pytest.fixture
def held_documents(db):
    for title, source in (
        ("Wet verbetering poortwachter", "Wet verbetering poortwachter"),
        ("Arbeidsomstandighedenbesluit", "Arbobesluit"),
        ("NVAB Richtlijn Overspanning en burn-out", "NVAB"),
    ):
        GuidelineDocument.objects.get_or_create(title=title, defaults={"source": source})


@pytest.mark.parametrize(
    ("question", "best_texts", "not_held"),
    [
        ("Welke brandwerendheid eist het Bouwbesluit?", ["Artikel 5:4 – Pauze"], ["Bouwbesluit"]),
        # a corpus document, by its title, its source, or its stem and kind
        ("Wat regelt het Arbobesluit over tillen?", [], []),
        ("Met welk artikel wijzigde de poortwachterwet de WAO?", [], []),
        ("Wat zegt de NVAB-richtlijn over opbouw?", [], []),
        # a regulation one of the best passages names
        ("Moeten onze machines aan de Warenwet voldoen?", ["arbeidsmiddelen die voldoen aan de Warenwet"], []),
    ],
)
def test_it_tells_which_named_regulations_the_corpus_does_not_hold(held_documents, question, best_texts, not_held):
    assert regulations_not_held(question, best_texts) == not_held
