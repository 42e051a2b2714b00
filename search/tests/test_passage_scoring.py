"""How a guideline passage's evidence becomes its score, and how the weights are refitted on judged law questions."""

import json
from dataclasses import replace

import numpy as np
import pytest
from django.core.management import call_command

from search.passage_tuning import QuestionCandidates, first_cited, weights_fit
from search.pipeline.passage_scoring import FITTED, WEIGHT_NAMES, PassageEvidence, passage_score, rank_term

CLOSE_FIRST = PassageEvidence(similarity=0.6, vector_rank=1, lexical_rank=None)
WORDS_FIRST = PassageEvidence(similarity=0.45, vector_rank=8, lexical_rank=1, lexical_share=1.0)


@pytest.mark.parametrize(
    ("better", "worse", "why"),
    [
        (PassageEvidence(0.5, 3, 3), PassageEvidence(0.5, 3, 3, original=False), "the law's own text before the team's summary"),
        (PassageEvidence(0.5, 3, 3), PassageEvidence(0.4, 3, 3), "closer in meaning at the same places"),
        (PassageEvidence(0.5, 3, 3), PassageEvidence(0.5, 3, 3, original=False, standalone=True), "the law before a guideline summary"),
        (PassageEvidence(0.5, 3, 3, original=False, standalone=True), PassageEvidence(0.5, 3, 3, original=False), "a guideline's only text before our summary of a law"),
        (PassageEvidence(0.5, 3, 2), PassageEvidence(0.5, 3, 9), "higher in the BM25F list"),
        (PassageEvidence(0.5, 3, None), PassageEvidence(0.5, 3, None), "ties stay ties"),
        (PassageEvidence(0.5, 5, 5, vote=1.0), PassageEvidence(0.5, 1, 1, lexical_share=1.0), "a unanimous vote of the closest judged questions"),
        (PassageEvidence(0.1, 40, None, named=True), PassageEvidence(0.7, 1, 1, lexical_share=1.0, vote=1.0), "the article the question names"),
        (WORDS_FIRST, CLOSE_FIRST, "first by the law's words beats first by meaning alone at a smaller cosine gap"),
    ],
)
def test_it_orders_passages_by_their_evidence(better, worse, why):
    if why == "ties stay ties":
        assert passage_score(better) == passage_score(worse)
    else:
        assert passage_score(better) > passage_score(worse), why


def test_it_weighs_each_term_by_its_own_weight():
    evidence = PassageEvidence(0.5, 2, 4, lexical_share=0.5, vote=0.5)
    only_similarity = PassageWeights_only("similarity")
    assert passage_score(evidence, only_similarity) == pytest.approx(0.5)
    assert passage_score(evidence, PassageWeights_only("original_rank")) == pytest.approx(rank_term(2) + rank_term(4))
    assert passage_score(replace(evidence, original=False), PassageWeights_only("original_rank")) == 0.0
    assert len(evidence.terms()) == len(WEIGHT_NAMES)


def PassageWeights_only(name: str):
    return replace(FITTED, **{n: (1.0 if n == name else 0.0) for n in WEIGHT_NAMES})


def _candidates(rows, expected=1, source="a"):
    """rows: (terms, (document, section), matches)."""
    return QuestionCandidates(
        source=source,
        expected=expected,
        terms=np.array([terms for terms, _, _ in rows], dtype=float),
        places=[place for _, place, _ in rows],
        matches=[frozenset(match) for _, _, match in rows],
    )


def _terms(similarity=0.0, lexical=0.0):
    return PassageEvidence(similarity, lexical_rank=None).terms()[:2] + (lexical,) + (0.0,) * (len(WEIGHT_NAMES) - 3)


def test_it_counts_a_question_cited_only_when_every_expected_place_is_among_the_first_three_sections():
    rows = [
        (_terms(0.9), ("Arbowet", "Artikel 3"), ()),
        (_terms(0.8), ("Arbowet", "Artikel 3"), ()),  # a second passage of the same section is not a citation
        (_terms(0.7), ("Arbowet", "Artikel 5"), (0,)),
        (_terms(0.6), ("Arbobesluit", "Artikel 2.15"), ()),
        (_terms(0.5), ("Arbobesluit", "Artikel 3.2"), (1,)),
    ]
    assert first_cited(_candidates(rows[:4]), FITTED) == 2
    assert first_cited(_candidates(rows, expected=2), FITTED) is None  # the second place is fourth


def test_it_fits_the_weight_that_puts_the_expected_place_first():
    # In every question the expected passage is first by the law's words and second by meaning.
    questions = [
        _candidates([(_terms(0.6, 0.2), ("A", f"{n}"), ()), (_terms(0.55, 1.0), ("B", f"{n}"), (0,))], source=f"s{n % 2}")
        for n in range(6)
    ]
    only_meaning = PassageWeights_only("similarity")
    assert all(first_cited(q, only_meaning) == 2 for q in questions)
    fitted = weights_fit(questions, only_meaning)
    assert fitted != only_meaning
    assert all(first_cited(q, fitted) == 1 for q in questions)


@pytest.mark.django_db
def test_it_reports_each_judged_set_held_out_against_the_current_weights(tmp_path, capsys):
    lines = [
        {"id": "a1", "query": "Wanneer moet het plan van aanpak klaar zijn?", "expect": [{"doc": "Wet verbetering poortwachter: procesgang, plan van aanpak en re-integratieverslag", "art": [""]}]},
        {"id": "a2", "query": "Wat staat er in het re-integratieverslag?", "expect": [{"doc": "Wet verbetering poortwachter: procesgang, plan van aanpak en re-integratieverslag", "art": [""]}]},
        {"id": "b1", "query": "Hoe vaak moet een beeldschermwerker pauze nemen?", "expect": [{"doc": "Arbobesluit: beeldschermwerk", "art": [""]}]},
        {"id": "b2", "query": "Wat zegt de richtlijn over rode vlaggen bij lage rugpijn?", "expect": [{"doc": "NVAB Richtlijn Lage-rugpijn en lumbosacraal radiculair syndroom", "art": [""]}]},
        {"id": "b3", "query": "Mag ik vakantiedagen laten vervallen?"},
    ]
    first, second = tmp_path / "set_a.jsonl", tmp_path / "set_b.jsonl"
    first.write_text("\n".join(json.dumps(line) for line in lines[:2]), encoding="utf-8")
    second.write_text("\n".join(json.dumps(line) for line in lines[2:]), encoding="utf-8")
    call_command("tune_passages", "--questions", str(first), "--questions", str(second), "--json")
    report = json.loads(capsys.readouterr().out)
    assert [fold["held_out"] for fold in report["folds"]] == ["set_a", "set_b"]
    assert [fold["current"]["questions"] for fold in report["folds"]] == [2, 2]  # the unanswerable question is not counted
    assert report["current_held_out"]["cited_at_3"] >= 3  # the demo corpus answers these in its own words
    assert report["in_sample"]["cited_at_1"] + report["in_sample"]["cited_at_3"] >= report["current_held_out"]["cited_at_1"] + report["current_held_out"]["cited_at_3"]
    assert set(report["fitted_on_all"]) == set(WEIGHT_NAMES)


@pytest.mark.django_db
def test_it_refuses_to_tune_on_a_single_judged_set_with_a_dutch_message(tmp_path):
    only = tmp_path / "enkel.jsonl"
    only.write_text(json.dumps({"id": "x", "query": "plan van aanpak", "expect": [{"doc": "X", "art": ["1"]}]}), encoding="utf-8")
    with pytest.raises(Exception, match="minstens twee sets"):
        call_command("tune_passages", "--questions", str(only))
