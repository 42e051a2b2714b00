import json
import re

import pytest

from conftest import shared_path
from lexical.compounds import words_of
from lexical.terms import LEGAL_WORDING_WEIGHT, expansion_scale, query_terms
from lexical.thesaurus import (
    LEGAL_TERMS_FILE,
    legal_expansion_terms,
    outside_topics_named,
)

pytestmark = pytest.mark.django_db  # compound splitting reads the vocabulary

# Practice language → a word only the regulation uses for it.
BRIDGES = [
    ("Wie wijst de casemanager aan?", "begeleidt"),
    ("Wat hoort er in het verzuimdossier?", "aantekening"),
    ("Hoe vaak mag iemand bereikbaarheidsdienst draaien?", "consignatie"),
    ("Krijgt iemand met RSI een beeldschermbril?", "oogcorrectiemiddelen"),
    ("Mag een medewerker tijdens haar werk kolven?", "lactatie"),
    ("Schilders werken met oplosmiddelen", "vluchtige"),
    ("Wanneer moet de probleemanalyse klaar zijn?", "oordeel"),
    ("Hoe vaak moeten de hijsstroppen gekeurd worden?", "hefgereedschap"),
    ("Hoe lang mogen mensen in het koelhuis werken?", "temperatuur"),
    ("werktijden bijhouden verplicht", "deugdelijke"),
    ("Mogen we de termijn voor het plan van aanpak oprekken?", "gemotiveerd"),
    ("Mag ik weigeren om daar verder te werken zolang de stelling scheef hangt?", "werkonderbreking"),
    ("Niemand heeft me ooit uitgelegd wat die spullen doen", "onderricht"),
    ("Ik moet met chloor en ontkalker werken", "etiket"),
    ("Hoe lang bewaren we de lijst van medewerkers die met tbc-patiënten hebben gewerkt?", "register"),
    ("Moet ik overstappen op minder agressieve schoonmaakmiddelen?", "arbeidshygiënische"),
    # an age as people write it counts as its "N-jarige" (lexical.ages)
    ("ik ben 17 en sta in de afwas, mag dat met die herrie?", "jeugdige"),
    ("Mag mijn dochter van 13 op zaterdag bij de bakker helpen?", "kinderarbeid"),
]


@pytest.mark.parametrize(("question", "legal_word"), BRIDGES)
def test_it_adds_the_regulations_wording_for_a_practice_term(question, legal_word):
    terms = query_terms(question, legal=True)
    weights = dict(zip(terms.words, terms.weights))
    owns = dict(zip(terms.words, terms.own))
    assert weights[legal_word] == LEGAL_WORDING_WEIGHT * expansion_scale(len(words_of(question)))
    assert owns[legal_word] is False  # never counts as what the specialist typed (coverage, abstention)


@pytest.mark.parametrize(("question", "legal_word"), BRIDGES)
def test_it_keeps_law_wording_out_of_a_product_search(question, legal_word):
    assert legal_word not in query_terms(question).words


def test_it_weighs_the_added_words_more_in_a_long_question():
    """Thirty everyday words must not drown the two that name the subject in the law's words."""
    short = "Training agressie verplicht?"
    long = (
        "Ik sta achter de balie bij een gemeentelijk afvalbrengstation en we krijgen bijna elke dag te maken met "
        "schreeuwende en dreigende klanten. We hebben nooit een training gehad. Is mijn werkgever verplicht daar iets aan te doen?"
    )
    short_terms, long_terms = query_terms(short, legal=True), query_terms(long, legal=True)
    short_weight = dict(zip(short_terms.words, short_terms.weights))["arbeidsbelasting"]
    long_weight = dict(zip(long_terms.words, long_terms.weights))["arbeidsbelasting"]
    assert long_weight > short_weight
    assert dict(zip(long_terms.words, long_terms.weights))["balie"] == 1.0  # what was typed keeps its weight


def test_it_keeps_the_weight_of_added_words_in_a_product_search_whatever_its_length():
    long = "Medewerker van de balie krijgt bijna elke dag te maken met schreeuwende en dreigende klanten en slaapt slecht " * 2
    terms = query_terms(long)
    assert dict(zip(terms.words, terms.weights))["arbeidsbelasting"] <= 0.5


def test_it_adds_nothing_for_a_question_without_practice_terms():
    assert legal_expansion_terms("recept voor appeltaart met kaneel") == []


@pytest.mark.shared
def test_it_only_adds_words_the_six_regulations_use():
    """An entry that adds a word the laws do not contain matches nothing and only costs time."""
    laws = " ".join(path.read_text(encoding="utf-8").lower() for path in shared_path("corpus", "wetten").glob("*.md"))
    law_words = set(re.findall(r"[\w'&-]+", laws)) | set(re.findall(r"\d+[.:]\d+", laws))  # words and times ("23.00")
    entries = json.loads(LEGAL_TERMS_FILE.read_text(encoding="utf-8"))
    missing = {word for entry in entries for word in entry["add"].lower().split() if word not in law_words}
    assert not missing


LIABILITY = "aansprakelijkheid van de werkgever en schadevergoeding na een ongeval of beroepsziekte"


@pytest.mark.parametrize(("question", "topic"), [
    ("Hoeveel vakantiedagen heeft een parttimer?", "vakantiedagen en vakantiegeld"),
    ("Mag ik de proeftijd verlengen?", "arbeidsovereenkomst en ontslag"),
    ("bijtelling leaseauto", "belastingen en vergoedingen"),
    ("Wanneer gaat mijn AOW in?", "sociale zekerheid en pensioen"),
    ("Geldt de no-riskpolis voor een werknemer met een arbeidshandicap die uitvalt?", "sociale zekerheid en pensioen"),
    ("Mag de werknemer op grond van de WGBO vernietiging van zijn medisch dossier eisen?", "zorg voor patiënten en cliënten (BIG, WGBO, Wkkgz, Wet zorg en dwang)"),
    ("Wat moet een verpleegkundige doen om haar BIG-registratie te behouden?", "zorg voor patiënten en cliënten (BIG, WGBO, Wkkgz, Wet zorg en dwang)"),
    ("ORT-toeslag nachtdienst cao ziekenhuizen", "loon en toeslagen"),
    ("Krijg ik op mijn nulurencontract minimaal drie uur betaald als ik na een uur naar huis word gestuurd?", "arbeidsovereenkomst en ontslag"),
    ("Hoeveel mag ik naast mijn studie bijverdienen zonder dat mijn studiefinanciering in gevaar komt?", "sociale zekerheid en pensioen"),
    ("Mag mijn werkgever naar mijn diagnose vragen en die vastleggen?", "de diagnose vragen of vastleggen (medische privacy)"),
    ("Mag de leidinggevende bij de ziekmelding vragen wat de werknemer precies mankeert?", "de diagnose vragen of vastleggen (medische privacy)"),
    # the six regulations make an employer report an accident (Arbowet art. 9), not pay for it
    ("Hij is van een ladder gevallen en stelt ons aansprakelijk, moeten we schadevergoeding betalen?", LIABILITY),
    ("Kan ik smartengeld eisen voor mijn burn-out?", LIABILITY),
    # the Arbowet asks for enough trained emergency responders (art. 15), not how long their diploma lasts
    ("BHV diploma geldigheid hoeveel jaar", "geldigheid van diploma's en certificaten en herhalingscursussen"),
    ("Hoe lang is een BHV-diploma geldig voordat een medewerker op herhalingscursus moet?", "geldigheid van diploma's en certificaten en herhalingscursussen"),
])
def test_it_names_the_subjects_the_corpus_does_not_cover(question, topic):
    assert topic in [named for named, _ in outside_topics_named(question)]


@pytest.mark.parametrize("question", [
    "Wanneer moet het plan van aanpak klaar zijn na de probleemanalyse?",
    # working on a shopping Sunday is the Arbeidstijdenwet's Sunday rule (art. 5:6), whatever the shop's hours
    "verplicht werken op koopzondag",
    "Moet ik een arbeidsongeval met letsel melden bij de Arbeidsinspectie?",
    "Hoeveel BHV'ers moeten er zijn en wat moeten ze kunnen?",
    # a new diagnosis is the course of the illness (Regeling procesgang art. 4), not a privacy question
    "De bedrijfsarts ziet dat het herstel anders loopt omdat er een nieuwe diagnose is gesteld. Moet het plan van aanpak worden bijgesteld?",
])
def test_it_names_no_outside_subject_in_an_occupational_health_question(question):
    assert outside_topics_named(question) == []
