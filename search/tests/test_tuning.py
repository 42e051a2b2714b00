"""Fitting stage 2 honestly: held-out figures decide, not the in-sample ones."""

import json
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from search.pipeline.ranking.parameters import DEFAULT
from search.tuning import (
    RULES_OFF,
    TUNABLE,
    UNIT_INTERVAL,
    cross_validated,
    trial_parameters,
)


def test_it_keeps_the_current_parameters_first_and_varies_only_tunable_ones_within_bounds():
    candidates = trial_parameters(trials=12, seed=1)
    assert candidates[0] == DEFAULT and len(candidates) == 12 == len(set(candidates))
    for params in candidates[1 + len(RULES_OFF) + 1 :]:
        changed = [name for name in TUNABLE if getattr(params, name) != getattr(DEFAULT, name)]
        assert 1 <= len(changed) <= 4
        for name in changed:
            value, base = getattr(params, name), getattr(DEFAULT, name)
            within_step = 0.5 * base - 1e-9 <= value <= 1.5 * base + 1e-9
            assert within_step or (name in UNIT_INTERVAL and 0.0 <= value <= 1.0)
        assert params.fit_audience <= 1.0
    assert trial_parameters(trials=12, seed=1) == candidates  # reproducible


def test_it_tries_every_impact_rule_switched_off_right_after_the_current_parameters():
    candidates = trial_parameters(trials=12, seed=1)
    first = candidates[: len(RULES_OFF) + 2]
    for changes in RULES_OFF.values():
        assert replace(DEFAULT, **changes) in first  # the current set itself when that rule is already off
    assert any(c.impact_suitability_floor == c.reach_floor == c.mismatch_roles == 1.0 for c in first)


def test_it_scores_each_fold_with_the_trial_chosen_without_it():
    # Trial 1 is perfect on one situation and poor elsewhere: it wins whichever fold holds that
    # situation out, so cross-validation exposes it; trial 2 is steadily better than the current one.
    scores = [
        [0.5, 0.5, 0.5, 0.5],
        [1.0, 0.0, 0.0, 0.0],
        [0.6, 0.6, 0.6, 0.6],
    ]
    assert cross_validated(scores, folds=4, seed=3) == (pytest.approx(0.6), None)
    overfit = [[0.5, 0.5], [1.0, 0.0]]  # equal in-sample (0.5), but each fold picks the trial that loses the other
    assert cross_validated(overfit, folds=2, seed=3)[0] < 0.5


def test_it_chooses_by_votes_where_the_judged_set_is_indifferent():
    # Equal on every judged situation; trial 1 follows the specialists' preferences in all voted searches.
    scores = [[0.5, 0.5], [0.5, 0.5]]
    agreement = [[0.0, 0.0], [1.0, 1.0]]
    assert cross_validated(scores, folds=2, seed=3, agreement=agreement) == (pytest.approx(0.5), pytest.approx(1.0))


@pytest.mark.django_db
def test_it_reports_held_out_and_in_sample_figures_and_advises(tmp_path):
    judged = tmp_path / "judged.jsonl"
    judged.write_text("\n".join(json.dumps(line) for line in [
        {"id": "a", "query": "rugklachten door tillen", "rel": {"Vroegconsult fysiotherapie": 2}},
        {"id": "b", "query": "burn-out, 6 maanden thuis", "rel": {"Herstelcoaching": 2}},
        {"id": "c", "query": "conflict met leidinggevende", "rel": {"Mediation Bij Ziekteverzuim": 2}},
        {"id": "d", "query": "rouw na overlijden partner", "rel": {"Rouwbegeleiding": 2}},
    ]), encoding="utf-8")
    out = StringIO()
    call_command("tune_ranker", "--queries", str(judged), "--trials", "3", "--folds", "2", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["queries"] == 4 and report["trials"] == 3 and report["folds"] == 2
    assert 0 <= report["fitted_held_out"] <= 1 and report["fitted_in_sample"] >= report["current_held_out"]
    assert report["vote_pairs"] == 0 and report["current_pair_agreement"] is None
    assert report["adopt"] == (report["fitted_held_out"] > report["current_held_out"])
    assert report["saved_version"] is None  # without --save nothing changes

    with pytest.raises(CommandError, match="minstens 2"):
        call_command("tune_ranker", "--queries", str(judged), "--trials", "1")
