"""Learning from thumbs: votes become pairwise preferences, tune_ranker fits on them next to the
judged set, a winning set becomes a new active version that the next search ranks with and records,
and the admin rolls it back."""

import json
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command

from search.evaluation import JudgedQuery
from search.models import FeedbackVote, RankingParameterSet, SearchLog
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.ranking.versions import active_ranking, parameters_from_values
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.selectors import voted_searches
from search.services import (
    RankingVersionRefused,
    feedback_vote_cast,
    ranking_version_activate,
    ranking_version_save,
    search_perform,
)
from search.tuning import pair_agreement, ranker_tune, trial_parameters

pytestmark = pytest.mark.django_db

# A situation whose top 5 some trials reorder (the burn-out example of the seed is ranked the same by all of them).
QUERY = "Medewerker met rugklachten, 3 weken thuis"
BURN_OUT_QUERY = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
TRIALS, SEED = 16, 7


def _names(params=None, query=QUERY) -> list[str]:
    return [item.product.name for item in search_run(SearchRequest(query=query, top_k=5), params=params).recommendations]


def _swap_among_trials() -> tuple[str, str, list[list[str]]]:
    """A pair of shown products (preferred, other) that the built-in parameters rank other-first and
    some trial ranks preferred-first, and every trial's top 5 (for judgments that all trials satisfy)."""
    rankings = [_names(params) for params in trial_parameters(trials=TRIALS, seed=SEED)]
    base = rankings[0]
    for ranking in rankings[1:]:
        for other in base:
            for preferred in base[base.index(other) + 1 :]:
                if preferred in ranking and other in ranking and ranking.index(preferred) < ranking.index(other):
                    return preferred, other, rankings
    pytest.fail(f"none of the {TRIALS} trials reorders the top 5 of {QUERY!r}; choose another query or seed")


def _vote(user, search_id: int, name: str, value: int) -> None:
    recommendation = SearchLog.objects.get(pk=search_id).recommendations.get(product_name=name)
    feedback_vote_cast(user=user, recommendation_id=recommendation.id, value=value)


def test_it_counts_pairs_ranked_the_right_way_round():
    assert pair_agreement([1, 2, 3], [(1, 3), (3, 2)]) == 0.5
    assert pair_agreement([1, 2], [(2, 9)]) == 1.0  # a product not shown ranks below every shown one
    assert pair_agreement([1, 2], [(8, 9)]) == 0.5


def test_it_turns_net_votes_into_preference_pairs_within_one_search(owner, colleague):
    outcome = search_perform(request=SearchRequest(query=QUERY, top_k=5, sector="zorg"), user=owner)
    first, second, third = [item.product for item in outcome.recommendations[:3]]
    log = SearchLog.objects.get(pk=outcome.search_id)
    _vote(owner, outcome.search_id, first.name, -1)
    _vote(owner, outcome.search_id, third.name, 1)
    _vote(owner, outcome.search_id, second.name, 1)
    # Votes of several voters on one recommendation are added up (here one up, one down: no preference).
    FeedbackVote.objects.create(user=colleague, recommendation=log.recommendations.get(product=second), value=-1)
    [voted] = voted_searches()
    assert voted.search_id == outcome.search_id and voted.query == QUERY
    assert voted.request_fields == {"sector": "zorg"}
    assert voted.pairs == ((third.id, first.id),)  # second is net zero: no preference


def test_it_learns_from_votes_activates_the_version_records_it_and_rolls_back(owner, tmp_path, client, staff):
    preferred, other, rankings = _swap_among_trials()
    assert _names()[:5] == rankings[0]
    for _ in range(2):  # two searches with the same preference, so every fold has votes to learn from
        search_id = search_perform(request=SearchRequest(query=QUERY, top_k=5), user=owner).search_id
        _vote(owner, search_id, preferred, 1)
        _vote(owner, search_id, other, -1)
    assert SearchLog.objects.filter(ranking_version__isnull=True).count() == 2
    # Judgments every trial satisfies equally, so the judged set cannot tell them apart: only the votes can.
    relevant = {name: 1 for ranking in rankings for name in ranking}
    judged = tmp_path / "judged.jsonl"
    judged.write_text("\n".join(json.dumps({"id": f"q{n}", "query": QUERY, "rel": relevant}) for n in range(2)), encoding="utf-8")

    out = StringIO()
    call_command("tune_ranker", "--queries", str(judged), "--trials", str(TRIALS), "--seed", str(SEED), "--folds", "2", "--save", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert (report["vote_searches"], report["vote_pairs"], report["queries"]) == (2, 2, 2)
    assert report["fitted_held_out"] >= report["current_held_out"]
    assert report["fitted_held_out_pair_agreement"] > report["current_pair_agreement"]
    version = RankingParameterSet.objects.get(pk=report["saved_version"])
    assert version.is_active and (version.judged_situations, version.vote_pairs) == (2, 2)
    assert version.held_out_ndcg == report["fitted_held_out"]

    # The next search ranks with the new version and records it.
    after = search_perform(request=SearchRequest(query=QUERY, top_k=5), user=owner)
    names = [item.product.name for item in after.recommendations]
    assert preferred in names and (other not in names or names.index(preferred) < names.index(other))  # shown above, or alone
    assert SearchLog.objects.get(pk=after.search_id).ranking_version_id == version.id
    assert active_ranking().params == parameters_from_values(version.values)

    # Rollback in the admin: the built-in parameters rank again, and the searches say so.
    client.force_login(staff)
    response = client.post(
        "/admin/search/rankingparameterset/", {"action": "use_built_in", "_selected_action": [version.pk]}, follow=True
    )
    assert "De ingebouwde parameters ranken vanaf de volgende zoekvraag." in response.content.decode()
    rolled_back = search_perform(request=SearchRequest(query=QUERY, top_k=5), user=owner)
    assert [item.product.name for item in rolled_back.recommendations] == rankings[0]
    assert SearchLog.objects.get(pk=rolled_back.search_id).ranking_version_id is None
    # … and forward again to the version.
    client.post("/admin/search/rankingparameterset/", {"action": "activate_selected", "_selected_action": [version.pk]})
    assert active_ranking().version_id == version.id


def test_it_refuses_a_version_that_lowers_held_out_ndcg(owner):
    # A set that ranks by closeness in meaning alone reorders the top 3; the votes side with it, the
    # judged set (the built-in top 3, graded in order) does not.
    by_meaning = replace(DEFAULT, topical_lexical=0.0, topical_wijzer=0.0, topical_similarity=1.0, precedent_weight=0.0)
    base, variant = _names(DEFAULT, BURN_OUT_QUERY), _names(by_meaning, BURN_OUT_QUERY)
    assert base[:3] != variant[:3], "precondition: the variant must reorder the top 3"
    preferred, other = next(
        (p, o) for o in base for p in base[base.index(o) + 1 :] if p in variant and o in variant and variant.index(p) < variant.index(o)
    )
    for _ in range(2):
        search_id = search_perform(request=SearchRequest(query=BURN_OUT_QUERY, top_k=5), user=owner).search_id
        _vote(owner, search_id, preferred, 1)
        _vote(owner, search_id, other, -1)
    graded = {name: grade for name, grade in zip(base[:3], (3, 2, 1), strict=True)}
    queries = [JudgedQuery(id=f"q{n}", query=BURN_OUT_QUERY, rel=graded) for n in range(2)]

    report = ranker_tune(queries, voted_searches(), folds=2, candidates=[DEFAULT, by_meaning])
    assert report.current_pair_agreement == 0.0
    assert report.best == by_meaning  # the votes win in-sample …
    assert report.fitted_held_out < report.current_held_out  # … but it loses on the judged set
    assert not report.adopt
    with pytest.raises(RankingVersionRefused, match="Niet opgeslagen"):
        ranking_version_save(report=report, based_on_id=None)
    assert not RankingParameterSet.objects.exists() and active_ranking().version_id is None


def test_it_ignores_stored_values_of_parameters_the_code_no_longer_has(caplog):
    params = parameters_from_values({"speed_weight": 0.5, "gone_parameter": 3})
    assert params.speed_weight == 0.5 and params.topical_lexical == DEFAULT.topical_lexical
    assert "gone_parameter" in caplog.text
    ranking_version_activate(version_id=None)
    assert active_ranking().version_id is None
