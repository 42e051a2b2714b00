"""Whether a guideline question gets an answer: the fitted abstention model's confidence, and what silences a
question whatever it says (a regulation the corpus does not hold) or unless it is nearly sure (a subject outside the
corpus named in passing)."""

import pytest

from search.pipeline.abstention import FITTED as FITTED_ABSTENTION
from search.pipeline.abstention import TERM_NAMES, AnswerEvidence
from search.pipeline.passages import OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE, PassageRetrieval, QuestionCloseness
from search.pipeline.types import CitedChunk


def _retrieval(evidence: AnswerEvidence, **blocked) -> PassageRetrieval:
    passage = CitedChunk(1, "Arbeidsomstandighedenwet", "Arbowet", "Artikel 14", "", evidence.first_similarity, "bedrijfsarts", "14", False)
    return PassageRetrieval(
        passages=[passage], best_coverage=evidence.coverage, best_similarity=evidence.similarity,
        closeness=QuestionCloseness(answered=evidence.answered_closeness, unanswerable=evidence.unanswerable_closeness),
        vouched=evidence.vouched, question_words=evidence.words, practice_terms=evidence.practice_terms,
        domain_terms=evidence.domain_terms, **blocked,
    )


@pytest.mark.parametrize(
    ("evidence", "answers"),
    [
        # "deskundigenoordeel UWV aanvragen": a passage has all its words, and a judged answerable question is close
        (AnswerEvidence(1.0, 0.3, 0.71, 0.2, 0.8, 0.3, 3, 0, False), True),
        # a longer question close in meaning whose best passage the closest judged questions vote for
        (AnswerEvidence(0.5, 0.45, 0.5, 0.2, 1.0, 0.4, 14, 1, False), True),
        # "bedrijfsarts verplicht kleine garage": a practice term, most of its few words in Arbowet 14
        (AnswerEvidence(0.57, 0.2, 0.44, 0.0, 0.0, 0.2, 4, 1, False), True),
        # asked like a judged question the corpus cannot answer, in other words than the law's
        (AnswerEvidence(0.3, 0.3, 0.3, 0.85, 0.0, 0.3, 10, 0, False), False),
        # nothing close: few of its words, far from every judged question, no vote
        (AnswerEvidence(0.2, 0.25, 0.15, 0.15, 0.0, 0.2, 15, 0, False), False),
    ],
)
def test_it_answers_when_the_fitted_model_is_confident_enough(settings, evidence, answers):
    settings.ANSWER_MIN_CONFIDENCE = 0.5
    assert _retrieval(evidence).answers_question is answers


def test_it_never_answers_a_question_on_a_regulation_the_corpus_lacks_however_confident(settings):
    settings.ANSWER_MIN_CONFIDENCE = 0.5
    confident = AnswerEvidence(1.0, 0.6, 0.9, 0.0, 1.0, 0.6, 4, 1, False)
    assert _retrieval(confident).answers_question
    assert not _retrieval(confident, unheld_regulations=["Burgerlijk Wetboek"]).answers_question


def test_it_answers_a_question_that_names_a_subject_outside_the_corpus_only_when_nearly_sure(settings):
    """"Houdt hij zijn loon als hij het werk neerlegt bij gevaar, ook al dreigt de chef met een officiële waarschuwing?"."""
    settings.ANSWER_MIN_CONFIDENCE = 0.5
    nearly_sure = AnswerEvidence(1.0, 0.6, 0.9, 0.0, 1.0, 0.6, 4, 1, False)
    fairly_sure = AnswerEvidence(0.57, 0.2, 0.44, 0.0, 0.0, 0.2, 4, 1, False)
    assert FITTED_ABSTENTION.confidence(nearly_sure) >= OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE
    assert 0.5 <= FITTED_ABSTENTION.confidence(fairly_sure) < OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE
    assert _retrieval(nearly_sure, uncovered_topics=["arbeidsovereenkomst en ontslag"]).answers_question
    assert not _retrieval(fairly_sure, uncovered_topics=["arbeidsovereenkomst en ontslag"]).answers_question
    # an admin who asks for more confidence than that gets it here too
    settings.ANSWER_MIN_CONFIDENCE = (1.0 + FITTED_ABSTENTION.confidence(nearly_sure)) / 2
    assert not _retrieval(nearly_sure, uncovered_topics=["arbeidsovereenkomst en ontslag"]).answers_question


@pytest.mark.parametrize(
    ("more", "less", "why"),
    [
        (AnswerEvidence(0.5, 0.3, 0.4, 0.2, 1.0, 0.3, 10, 0, False), AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 10, 0, False), "the judged questions vouch for a best passage"),
        (AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 10, 0, False), AnswerEvidence(0.5, 0.3, 0.4, 0.7, 0.0, 0.3, 10, 0, False), "less like an unanswerable judged question"),
        (AnswerEvidence(0.9, 0.3, 0.4, 0.2, 0.0, 0.3, 10, 0, False), AnswerEvidence(0.3, 0.3, 0.4, 0.2, 0.0, 0.3, 10, 0, False), "more of its words in one passage"),
        (AnswerEvidence(0.5, 0.5, 0.4, 0.2, 0.0, 0.3, 10, 0, False), AnswerEvidence(0.5, 0.2, 0.4, 0.2, 0.0, 0.3, 10, 0, False), "a passage closer in meaning"),
    ],
)
def test_it_grows_more_confident_with_each_kind_of_evidence_that_the_corpus_answers(more, less, why):
    assert FITTED_ABSTENTION.confidence(more) > FITTED_ABSTENTION.confidence(less), why


def test_it_is_less_sure_of_a_search_box_question_that_names_nothing_of_work_or_health():
    """"douche ontkalken": a few words, no practice term and no entry of the catalog thesaurus."""
    everyday = AnswerEvidence(0.57, 0.2, 0.15, 0.0, 0.0, 0.2, 4, 0, False, domain_terms=0)
    at_work = AnswerEvidence(0.57, 0.2, 0.15, 0.0, 0.0, 0.2, 4, 0, False, domain_terms=1)
    longer = AnswerEvidence(0.57, 0.2, 0.15, 0.0, 0.0, 0.2, 12, 0, False, domain_terms=0)
    assert FITTED_ABSTENTION.confidence(everyday) < 0.5 < FITTED_ABSTENTION.confidence(at_work)
    outside_domain = TERM_NAMES.index("search_box_outside_domain")
    assert everyday.terms()[outside_domain] == 1.0 and longer.terms()[outside_domain] == 0.0  # only search-box questions


def test_it_keeps_silent_more_often_when_an_admin_asks_for_more_confidence(settings):
    borderline = AnswerEvidence(0.57, 0.2, 0.2, 0.0, 0.0, 0.2, 4, 0, False, domain_terms=1)
    settings.ANSWER_MIN_CONFIDENCE = 0.5
    assert _retrieval(borderline).answers_question
    settings.ANSWER_MIN_CONFIDENCE = 0.8
    assert not _retrieval(borderline).answers_question
