"""The judged questions closest in meaning vote on whether the corpus answers a new one (search.pipeline.question_votes)."""

import json

import pytest

from embeddings.encoder import source_hash
from embeddings.selectors import active_embedding_model, query_embedding
from search.models import ReferenceQuestion
from search.pipeline.abstention import FITTED, AnswerEvidence
from search.pipeline.passage_scoring import passage_score
from search.pipeline.passages import SUMMARY_VOTE_MIN_SIMILARITY, passage_candidates
from search.pipeline.question_votes import meaning_votes
from search.question_embeddings import reference_question_embeddings_refresh
from search.reference_situations import reference_questions_load

ANSWERED = [
    {"id": "a-1", "query": "Hoeveel rust moet een werknemer krijgen na een reeks nachtdiensten?", "expect": [{"doc": "Arbeidstijdenwet", "art": ["5:8"]}]},
    {"id": "a-2", "query": "Hoeveel nachtdiensten achter elkaar mag iemand draaien?", "expect": [{"doc": "Arbeidstijdenwet", "art": ["5:8"]}]},
    {"id": "a-3", "query": "Wat is de maximale arbeidstijd per nachtdienst?", "expect": [{"doc": "Arbeidstijdenwet", "art": ["5:8"]}]},
]
UNANSWERED = [
    {"id": "u-1", "query": "Hoeveel vakantiegeld krijgt een werknemer in mei uitbetaald?"},
    {"id": "u-2", "query": "Hoeveel wettelijke vakantiedagen heeft een fulltimer per jaar?"},
    {"id": "u-3", "query": "Mag mijn werkgever mijn vakantie intrekken als het druk is?"},
]


def _load(tmp_path, name: str, lines: list[dict]):
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8")
    return reference_questions_load(path=path)


@pytest.fixture
def judged_questions(db, tmp_path):
    """Only these six judged questions, three about night shifts that the corpus answers and three about holidays it does not."""
    ReferenceQuestion.objects.all().delete()
    _load(tmp_path, "nachtwerk", ANSWERED)
    _load(tmp_path, "vakantie", UNANSWERED)


def _vote(question: str, **kwargs) -> float | None:
    return meaning_votes(query_embedding(question).params(), **kwargs).answered


def test_it_votes_by_whether_the_judged_questions_closest_in_meaning_were_answered(judged_questions):
    holiday = _vote("Wanneer wordt het vakantiegeld betaald en hoeveel is het?")
    night = _vote("Hoe lang moet de rust na een nachtdienst duren?")
    assert holiday is not None and night is not None
    assert holiday < 0.5 < night


def test_it_lets_the_closest_judged_questions_vote_for_the_articles_that_answered_them(judged_questions):
    votes = meaning_votes(query_embedding("Hoe lang moet de rust na een nachtdienst duren?").params())
    assert set(votes.places) == {("Arbeidstijdenwet", "5:8")}
    assert votes.places[("Arbeidstijdenwet", "5:8")] == pytest.approx(votes.answered)


def test_it_leaves_the_measured_set_out_of_the_vote(judged_questions):
    assert _vote("Hoeveel vakantiedagen krijg ik?", held_out_source="vakantie") == pytest.approx(1.0)


def test_it_has_no_vote_without_judged_questions_of_the_active_model(judged_questions):
    ReferenceQuestion.objects.update(embedding_model="een-ander-model")
    assert _vote("Hoeveel vakantiedagen krijg ik?") is None


def test_it_embeds_each_judged_question_once_and_again_when_its_text_changes(judged_questions, tmp_path):
    assert reference_question_embeddings_refresh() == 0
    model = active_embedding_model()
    changed = dict(UNANSWERED[0], query="Wordt vakantiegeld ook over overuren opgebouwd?")
    _load(tmp_path, "vakantie", [changed, *UNANSWERED[1:]])  # loading embeds what changed
    question = ReferenceQuestion.objects.get(source="vakantie", external_id="u-1")
    assert question.embedding_model == model
    assert question.embedding_source_hash == source_hash(changed["query"], model=model)
    assert reference_question_embeddings_refresh() == 0

    ReferenceQuestion.objects.filter(id=question.id).update(embedding_source_hash="")
    assert reference_question_embeddings_refresh() == 1


def test_it_lets_a_missing_vote_move_the_confidence_neither_way():
    evidence = AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 8, 1, False)
    at_mean = AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 8, 1, False, answered_vote=FITTED.means[-1])
    unanswered = AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 8, 1, False, answered_vote=0.0)
    assert FITTED.confidence(evidence) == pytest.approx(FITTED.confidence(at_mean))
    assert FITTED.confidence(unanswered) < FITTED.confidence(evidence)


def test_it_embeds_a_judged_question_again_when_an_admin_rewrites_it(judged_questions, client, staff, settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the worker's part runs here
    question = ReferenceQuestion.objects.get(source="vakantie", external_id="u-1")
    client.force_login(staff)
    data = {
        "source": "vakantie", "external_id": "u-1", "text": "Bouwt een zieke werknemer vakantiedagen op?", "is_active": "on",
        "places-TOTAL_FORMS": "0", "places-INITIAL_FORMS": "0", "places-MIN_NUM_FORMS": "0", "places-MAX_NUM_FORMS": "1000",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/admin/search/referencequestion/{question.id}/change/", data)
    assert response.status_code == 302
    question.refresh_from_db()
    assert question.embedding_source_hash == source_hash("Bouwt een zieke werknemer vakantiedagen op?", model=active_embedding_model())


PARENTAL_LEAVE = "Hoe plan je de terugkeer na het bevallingsverlof als er ook ouderschapsverlof wordt opgenomen?"
PREGNANCY_GUIDELINE = "NVAB Richtlijn Zwangerschap, postpartumperiode en werk"


def test_it_lets_no_vote_lift_a_summary_that_shares_nothing_of_the_questions_meaning(db, tmp_path, fresh_precedent_index):
    """A judged question in the same words voted for the leave section (6.1) and the postpartum-depression
    section (6.4); 6.4 says nothing about planning leave (cosine below 0), so only 6.1 is lifted."""
    ReferenceQuestion.objects.all().delete()
    _load(tmp_path, "verlof", [{"id": "v-1", "query": PARENTAL_LEAVE, "expect": [{"doc": PREGNANCY_GUIDELINE, "art": ["6.1", "6.4"]}]}])
    candidates = passage_candidates(PARENTAL_LEAVE, embedding=query_embedding(PARENTAL_LEAVE).params())
    evidence = {
        place: candidates.evidence[chunk_id]
        for chunk_id, chunk in candidates.chunks.items() if chunk.document_title == PREGNANCY_GUIDELINE
        for place in chunk.places if place in {"6.1", "6.4"}
    }
    assert evidence["6.4"].similarity < SUMMARY_VOTE_MIN_SIMILARITY <= evidence["6.1"].similarity
    assert evidence["6.4"].vote == evidence["6.4"].meaning_vote == 0.0
    assert evidence["6.1"].vote > 0.5
    assert passage_score(evidence["6.1"]) > passage_score(evidence["6.4"])

