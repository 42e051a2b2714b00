import json

import pytest
from django.core.management import call_command

from conftest import shared_path
from guidelines.models import GuidelineDocument
from search.answers import CITED, NO_ANSWER, guideline_answer
from search.pipeline.passages import passages_retrieve
from search.pipeline.request import SearchRequest
from search.pipeline.run import NO_RESULTS_MESSAGE, search_run

pytestmark = pytest.mark.django_db

LAW_FILES = [
    ("arbeidsomstandighedenwet_BWBR0010346.md", "Arbeidsomstandighedenwet", "Arbowet"),
    ("arbeidsomstandighedenbesluit_BWBR0008498.md", "Arbeidsomstandighedenbesluit", "Arbobesluit"),
    ("arbeidstijdenwet_BWBR0007671.md", "Arbeidstijdenwet", "Arbeidstijdenwet"),
    ("regeling_procesgang_eerste_ziektejaar_BWBR0013540.md", "Regeling procesgang eerste ziektejaar", "Wet verbetering poortwachter"),
    ("beleidsregels_beoordelingskader_poortwachter_BWBR0014375.md", "Beleidsregels beoordelingskader poortwachter", "UWV"),
    ("wet_verbetering_poortwachter_BWBR0013063.md", "Wet verbetering poortwachter", "Wet verbetering poortwachter"),
]
TERM_QUESTION = {
    "id": "termijn-oordeel-bedrijfsarts",
    "query": "Binnen welke termijn moet de werkgever een oordeel van de bedrijfsarts vragen bij dreigend langdurig verzuim?",
    "expect": [{"doc": "Regeling procesgang eerste ziektejaar", "art": ["2"]}],
}


@pytest.fixture(scope="module")
def law_corpus(django_db_setup, django_db_blocker):
    """The six real law texts next to the demo corpus, ingested once for this module and removed after it."""
    with django_db_blocker.unblock():
        for filename, title, source in LAW_FILES:
            call_command("ingest_guidelines", str(shared_path("corpus", "wetten", filename)), "--title", title, "--source", source, verbosity=0)
    yield
    with django_db_blocker.unblock():
        GuidelineDocument.objects.filter(title__in=[title for _, title, _ in LAW_FILES]).delete()


def _questions():
    path = shared_path("eval", "dev_guideline_questions.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] + [TERM_QUESTION]


@pytest.mark.shared
def test_it_cites_the_right_article_of_the_right_law(law_corpus):
    for question in _questions():
        answer = guideline_answer(question["query"])
        assert len(answer.citations) >= 2, question["id"]
        for expected in question["expect"]:
            assert any(c.document_title == expected["doc"] and c.article in expected["art"] for c in answer.citations), (
                question["id"], expected, [(c.document_title, c.article) for c in answer.citations]
            )


@pytest.mark.shared
def test_it_cites_five_passages_so_a_question_on_two_regulations_can_have_both(law_corpus):
    """The employee's duty is in the Arbowet, the protective equipment in the Arbobesluit: one citation per
    section, up to five, and both regulations among them."""
    answer = guideline_answer("Een magazijnmedewerker wil zijn veiligheidsschoenen niet dragen. Moet hij dat en wat moet de werkgever doen?")
    places = [(c.document_title, c.section) for c in answer.citations]
    assert len(places) == CITED == 5 and len(set(places)) == 5
    assert {"Arbeidsomstandighedenwet", "Arbeidsomstandighedenbesluit"} <= {c.document_title for c in answer.citations}
    assert [f"[{n}]" in answer.answer for n in range(1, 6)] == [True] * 5  # every cited passage is quoted


@pytest.mark.shared
def test_it_quotes_the_cited_passages_in_its_offline_answer(law_corpus):
    answer = guideline_answer(TERM_QUESTION["query"])
    assert answer.answer.startswith("Volgens de richtlijnen:")
    assert "Regeling procesgang eerste ziektejaar" in answer.answer
    assert all(c.content for c in answer.citations)


def test_it_answers_from_the_demo_corpus_with_two_citations():
    answer = guideline_answer("Wanneer moet het plan van aanpak klaar zijn?")
    assert len(answer.citations) >= 2
    assert any("plan van aanpak" in (c.section + c.content).lower() for c in answer.citations)


def test_it_says_so_when_nothing_answers_the_question():
    answer = guideline_answer("qzx plmok vrrt 9981")
    assert answer.answer == NO_ANSWER and answer.citations == []


@pytest.mark.shared
def test_it_cites_the_law_article_before_our_summary_of_it(law_corpus):
    answer = guideline_answer("Wat is de rol van de bedrijfsarts bij de begeleiding van zieke werknemers?")
    first_of_article_14 = next(c for c in answer.citations if c.article == "14")
    assert (first_of_article_14.document_title, first_of_article_14.is_summary) == ("Arbeidsomstandighedenwet", False)


@pytest.mark.shared
def test_it_abstains_when_the_laws_do_not_cover_the_question(law_corpus):
    for question in (
        "Hoe doe ik de btw-aangifte per kwartaal voor mijn bv?",
        "Hoeveel dagen bijzonder verlof krijg je bij een verhuizing of bruiloft?",
        # these share many words with the Arbeidstijdenwet and the poortwachter texts, not their subject
        "Hoeveel wettelijke vakantiedagen heeft een fulltime werknemer per jaar?",
        "Welke opzegtermijn geldt voor de werkgever bij een medewerker die twaalf jaar in dienst is?",
    ):
        answer = guideline_answer(question)
        assert (answer.answer, answer.citations) == (NO_ANSWER, []), question


@pytest.mark.shared
@pytest.mark.parametrize(
    "question",
    [
        "Welke brandwerendheid in minuten moeten de scheidingswanden tussen opslaghal en kantoor hebben volgens het Bouwbesluit?",
        "Welke conformiteitsbeoordeling doorloopt een werkgever die zelf een machine bouwt voor de CE-markering onder de Machinerichtlijn?",
    ],
)
def test_it_abstains_on_a_question_about_a_regulation_the_corpus_does_not_hold(law_corpus, question):
    """The closest article shares the question's words (walls, machines), not its regulation."""
    answer = guideline_answer(question, generate=False)
    assert (answer.answer, answer.citations) == (NO_ANSWER, [])


@pytest.mark.shared
@pytest.mark.parametrize(
    "question",
    ["banden wisselen", "Hoe vervang ik de ketting van mijn fiets?", "kerstboom kopen", "weer morgen amsterdam"],
)
def test_it_abstains_on_everyday_questions_whose_words_the_laws_happen_to_share(law_corpus, question):
    """Compound parts give these up to 0.62 word coverage of some Arbobesluit article; that is no answer."""
    answer = guideline_answer(question, generate=False)
    assert (answer.answer, answer.citations) == (NO_ANSWER, [])


@pytest.mark.shared
@pytest.mark.parametrize(
    ("question", "document", "article"),
    [
        ("Mogen we de ploeg op zondag laten doorwerken om de betonstort af te maken?", "Arbeidstijdenwet", "5:6"),
        ("kabels opsporen voor graafwerk", "Arbeidsomstandighedenbesluit", "3.29"),
    ],
)
def test_it_answers_a_question_in_site_words_that_the_law_words_its_own_way(law_corpus, question, document, article):
    """Few of these words are the law's own ("betonstort", "graafwerk"), yet the article is the best passage."""
    answer = guideline_answer(question, generate=False)
    assert (document, article) == (answer.citations[0].document_title, answer.citations[0].article)


@pytest.mark.shared
def test_it_shows_the_closest_passages_when_no_product_fits(law_corpus):
    outcome = search_run(SearchRequest(query="explosieve atmosfeer ATEX"))
    assert outcome.recommendations == [] and outcome.message == NO_RESULTS_MESSAGE
    assert outcome.fallback_guidelines
    assert all(c.document_title == "Arbeidsomstandighedenbesluit" for c in outcome.fallback_guidelines[:1])


def test_it_promises_no_passages_for_a_question_outside_the_corpus():
    outcome = search_run(SearchRequest(query="recept voor appeltaart met kaneel"))
    assert outcome.recommendations == [] and outcome.fallback_guidelines == []


@pytest.mark.shared
@pytest.mark.parametrize(
    ("question", "document", "article"),
    [
        ("Wat hoort er allemaal in het verzuimdossier te zitten?", "Regeling procesgang eerste ziektejaar", "3"),
        ("Hoe vaak mag een monteur bereikbaarheidsdienst hebben?", "Arbeidstijdenwet", "5:9"),
        ("tilbelasting bakkerij meelzakken regels", "Arbeidsomstandighedenbesluit", "5.2"),
    ],
)
def test_it_finds_the_article_that_words_a_practice_term_its_own_way(law_corpus, question, document, article):
    """The Regeling says "aantekening houden", not "verzuimdossier"; the Arbeidstijdenwet "consignatie"."""
    answer = guideline_answer(question, generate=False)
    assert (document, article) in [(c.document_title, c.article) for c in answer.citations]


def test_it_does_not_hold_a_subject_outside_the_corpus_against_a_question_whose_passage_names_it():
    """Parental leave is no subject of ours, but the pregnancy guideline says how to plan around it: the
    question is weighed by the model like any other, not held to the near-certainty an uncovered subject needs.
    (Whether it is then answered is the model's call: nine writers judged questions on parental leave
    unanswerable, and its closest judged questions in meaning are those.)"""
    retrieval = passages_retrieve("Hoe plan je de terugkeer na het bevallingsverlof als er ook ouderschapsverlof wordt opgenomen?")
    assert retrieval.uncovered_topics == []
    assert retrieval.covered_topics
    assert any("ouderschapsverlof" in p.content.lower() for p in retrieval.best(3))
    # Birth leave for partners is named by no guideline or law of the corpus (parental leave is: the Arbeidstijdenwet).
    uncovered = passages_retrieve("Hoeveel weken geboorteverlof krijgt een vader en hoe vraag je dat aan?")
    assert uncovered.uncovered_topics == ["verlofregelingen"] and not uncovered.answers_question
