"""The abstention model is refitted on judged questions leave-one-set-out, with its threshold folded into the bias."""

import json
import math

import pytest
from django.core.management import call_command

from search.abstention_tuning import AbstentionTuningError, QuestionEvidence, mistakes_count, model_fit
from search.pipeline.abstention import FITTED, TERM_NAMES, AbstentionModel, AnswerEvidence
from search.pipeline.passages import OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE


def _row(coverage: float, answerable: bool, *, source: str = "a", blocked: bool = False) -> QuestionEvidence:
    return QuestionEvidence(source, answerable, blocked, AnswerEvidence(coverage, 0.3, 0.4, 0.2, 0.0, 0.3, 8, 0, False))


def test_it_has_one_weight_standardisation_and_term_per_name():
    assert len(FITTED.weights) == len(FITTED.means) == len(FITTED.scales) == len(TERM_NAMES)
    assert len(AnswerEvidence(0.5, 0.3, 0.4, 0.2, 0.0, 0.3, 8, 0, False).terms()) == len(TERM_NAMES)


def test_it_trusts_a_judged_vote_more_when_the_questions_that_cast_it_are_close():
    far = AnswerEvidence(0.3, 0.3, 0.2, 0.1, 0.9, 0.2, 3, 1, False)
    near = AnswerEvidence(0.3, 0.3, 0.6, 0.1, 0.9, 0.2, 3, 1, False)
    without_vote = [AnswerEvidence(0.3, 0.3, closeness, 0.1, 0.0, 0.2, 3, 1, False) for closeness in (0.2, 0.6)]
    # closeness raises confidence by itself too; with a vote it must raise it more (on the logit scale, where the
    # model adds its terms)
    gain_with_vote = _logit(FITTED.confidence(near)) - _logit(FITTED.confidence(far))
    gain_without_vote = _logit(FITTED.confidence(without_vote[1])) - _logit(FITTED.confidence(without_vote[0]))
    assert gain_with_vote > gain_without_vote > 0


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def test_it_fits_a_model_that_separates_answerable_from_unanswerable_questions_by_their_evidence():
    rows = [_row(0.8 + 0.01 * n, True) for n in range(20)] + [_row(0.2 + 0.01 * n, False) for n in range(20)]
    untrained = AbstentionModel((0.0,) * len(TERM_NAMES), (1.0,) * len(TERM_NAMES), (0.0,) * len(TERM_NAMES), 0.0)
    assert mistakes_count(untrained, rows).total == 20  # a confidence of exactly 0.5 answers everything
    fitted = model_fit(rows)
    assert mistakes_count(fitted, rows).total == 0
    assert fitted.confidence(rows[0].evidence) > 0.5 > fitted.confidence(rows[-1].evidence)


def test_it_counts_a_blocked_question_as_silent_whatever_the_model_says():
    rows = [_row(0.9, True, blocked=True), _row(0.9, False, blocked=True)]
    model = model_fit([_row(0.8 + 0.01 * n, True) for n in range(10)] + [_row(0.2 + 0.01 * n, False) for n in range(10)])
    mistakes = mistakes_count(model, rows)
    assert (mistakes.silent, mistakes.answered) == (1, 0)


def test_it_answers_a_question_naming_a_subject_outside_the_corpus_only_when_the_model_is_nearly_sure():
    model = model_fit([_row(0.6 + 0.02 * n, True) for n in range(10)] + [_row(0.2 + 0.02 * n, False) for n in range(10)])
    fairly_sure, nearly_sure = (
        next(row for row in (_row(c / 100, True) for c in range(0, 101)) if model.confidence(row.evidence) >= level)
        for level in (0.6, OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE)
    )
    assert model.confidence(fairly_sure.evidence) < OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE
    for row in (fairly_sure, nearly_sure):
        row.outside_topic = True
    assert mistakes_count(model, [fairly_sure]).silent == 1
    assert mistakes_count(model, [nearly_sure]).silent == 0


@pytest.mark.django_db
def test_it_reports_each_judged_set_held_out_next_to_the_current_model(tmp_path, capsys):
    first, second = tmp_path / "set_a.jsonl", tmp_path / "set_b.jsonl"
    first.write_text("\n".join(json.dumps(line) for line in [
        {"id": "a1", "query": "Wanneer moet het plan van aanpak klaar zijn?", "expect": [{"doc": "X", "art": ["1"]}]},
        {"id": "a2", "query": "Hoeveel vakantiegeld krijg ik in mijn eerste jaar?"},
    ]), encoding="utf-8")
    second.write_text("\n".join(json.dumps(line) for line in [
        {"id": "b1", "query": "Hoe vaak moet een beeldschermwerker pauze nemen?", "expect": [{"doc": "X", "art": ["1"]}]},
        {"id": "b2", "query": "Wat is de hoofdstad van Frankrijk?"},
    ]), encoding="utf-8")
    call_command("tune_abstention", "--questions", str(first), "--questions", str(second), "--json")
    report = json.loads(capsys.readouterr().out)
    assert [fold["held_out"] for fold in report["folds"]] == ["set_a", "set_b"]
    assert [(fold["fitted"]["answerable"], fold["fitted"]["unanswerable"]) for fold in report["folds"]] == [(1, 1), (1, 1)]
    assert report["in_sample"]["silent"] + report["in_sample"]["answered"] <= 4
    assert set(report["fitted_on_all"]) == {"means", "scales", "weights", "bias"}


@pytest.mark.django_db
def test_it_refuses_to_tune_without_unanswerable_questions_with_a_dutch_message(tmp_path):
    only = tmp_path / "enkel.jsonl"
    other = tmp_path / "ander.jsonl"
    only.write_text(json.dumps({"id": "x", "query": "plan van aanpak", "expect": [{"doc": "X", "art": ["1"]}]}), encoding="utf-8")
    other.write_text(json.dumps({"id": "y", "query": "pauze beeldscherm", "expect": [{"doc": "X", "art": ["1"]}]}), encoding="utf-8")
    with pytest.raises(Exception, match="beantwoordbare én onbeantwoordbare"):
        call_command("tune_abstention", "--questions", str(only), "--questions", str(other))


def test_it_refuses_to_fit_when_no_judged_question_found_any_passage():
    with pytest.raises(AbstentionTuningError, match="niets om op te fitten"):
        model_fit([QuestionEvidence("a", True, False, None), QuestionEvidence("b", False, False, None)])
