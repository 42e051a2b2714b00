"""Fit the stage-2 ranking parameters on judged situations and on the specialists' votes, and say
honestly whether it generalises.

Trials: the active parameters; then each multiplicative rule of impact switched off (timing, reach,
audience mismatch, body region) and all of them at once, so every rule must show it earns its place; then random
variations that change a handful of the influential parameters, by up to ±50 % or, for a share in
[0, 1], half of the time anywhere in [0, 1] (a local search alone never finds that a rule is better
off). Each trial is measured once per judged situation (nDCG@3) and once per voted search
(the share of its preference pairs, 👍 over 👎, that the trial ranks the right way round when the
search is replayed). k-fold cross-validation then picks, for every fold, the trial that is best on
the other folds (nDCG plus VOTE_WEIGHT × agreement) and scores it on this fold. The judged set stays
the yardstick: a fitted set is adopted only when its held-out nDCG@3 is not lower than the active
set's, and it wins on something held out. The in-sample figure only shows how much is overfitting.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from search.evaluation import JudgedQuery, ndcg_at_3
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.request import MAX_TOP_K, SearchRequest
from search.pipeline.run import search_run
from search.selectors import VotedSearch

# The parameters a trial may move: the mixture of the topical signals, how phase and audience damp
# impact, how much fit, backing and speed count, and the phase penalties that decide most rankings.
TUNABLE = (
    "topical_lexical", "topical_wijzer", "topical_similarity", "impact_suitability_floor", "reach_floor",
    "topical_gate_floor", "fit_audience", "fit_suitability", "speed_weight", "speed_weight_urgent",
    "guideline_strength_span", "before_window", "past_window_start", "unknown_phase", "prevention_absence_product",
    "mismatch_roles_and_sectors", "mismatch_roles", "widened_topical", "guideline_uncited",
    "precedent_weight", "precedent_forbidden", "mismatch_body_region", "acceptance_weight",
    "already_tried", "mismatch_online_on_site", "impact_knee",
)
# Each rule that multiplies impact, at the value that switches it off.
RULES_OFF = {
    "timing": {"impact_suitability_floor": 1.0},
    "reach": {"reach_floor": 1.0},
    "audience mismatch": {"mismatch_roles_and_sectors": 1.0, "mismatch_roles": 1.0},
    "body region": {"mismatch_body_region": 1.0},
    "already tried": {"already_tried": 1.0},
    "online where on site": {"mismatch_online_on_site": 1.0},
    "impact saturation": {"impact_knee": 1.0},
}
UNIT_INTERVAL = {name for name in TUNABLE if name not in ("guideline_strength_span", "precedent_weight", "precedent_forbidden")}
# How much the votes count next to the judged set when a trial is chosen: half, so a few specialists'
# preferences can move the ranking where the judged set is indifferent but never outvote it.
VOTE_WEIGHT = 0.5


@dataclass
class TuneReport:
    trials: int
    folds: int
    queries: int
    vote_searches: int
    vote_pairs: int
    current_held_out: float
    fitted_held_out: float
    fitted_in_sample: float
    current_pair_agreement: float | None
    fitted_held_out_pair_agreement: float | None
    base: RankingParameters
    best: RankingParameters

    @property
    def changed(self) -> dict[str, tuple[float, float]]:
        return {name: (getattr(self.base, name), getattr(self.best, name)) for name in TUNABLE if getattr(self.best, name) != getattr(self.base, name)}

    @property
    def adopt(self) -> bool:
        """Adopt only a different set that does not lower held-out nDCG@3 and wins held out on the
        judged set or on the votes."""
        if not self.changed or self.fitted_held_out < self.current_held_out:
            return False
        votes_gain = self.vote_pairs > 0 and (self.fitted_held_out_pair_agreement or 0.0) > (self.current_pair_agreement or 0.0)
        return self.fitted_held_out > self.current_held_out or votes_gain

    def tunable_values(self) -> dict[str, float]:
        """What a saved version stores: the tunable values (the rest follows the code)."""
        return {name: getattr(self.best, name) for name in TUNABLE}


def trial_parameters(*, trials: int, seed: int, base: RankingParameters = DEFAULT, moves: int = 4) -> list[RankingParameters]:
    """The current parameters first, then the rules switched off (those not off already), then random
    variations of `moves` tunable ones each, `trials` in all."""
    rng = random.Random(seed)
    ablations = [*RULES_OFF.values(), {name: value for changes in RULES_OFF.values() for name, value in changes.items()}]
    candidates = [base]
    for changes in ablations:
        trial = replace(base, **changes)
        if trial not in candidates and len(candidates) < trials:
            candidates.append(trial)
    while len(candidates) < trials:
        changes = {}
        for name in rng.sample(TUNABLE, moves):
            if name in UNIT_INTERVAL and rng.random() < 0.5:
                value = rng.uniform(0.0, 1.0)
            else:
                value = getattr(base, name) * rng.uniform(0.5, 1.5)
            changes[name] = round(min(value, 1.0) if name in UNIT_INTERVAL else value, 4)
        candidates.append(replace(base, **changes))
    return candidates


def ndcg_matrix(queries: list[JudgedQuery], candidates: list[RankingParameters]) -> list[list[float]]:
    """nDCG@3 of every candidate parameter set on every situation (the expensive part: one search each)."""
    return [
        [ndcg_at_3([item.product.name for item in search_run(SearchRequest(query=q.query, held_out_source=q.source), params=params).recommendations], q.rel, q.expect_empty) for q in queries]
        for params in candidates
    ]


def pair_agreement(ranked_ids: list[int], pairs: Sequence[tuple[int, int]]) -> float:
    """Share of (preferred, other) pairs ranked the right way round; a product not shown ranks below
    every shown one, and two products both not shown count as half."""
    position = {product_id: index for index, product_id in enumerate(ranked_ids)}
    unshown = len(ranked_ids)
    total = 0.0
    for preferred, other in pairs:
        a, b = position.get(preferred, unshown), position.get(other, unshown)
        total += 1.0 if a < b else 0.5 if a == b else 0.0
    return total / len(pairs)


def agreement_matrix(voted: list[VotedSearch], candidates: list[RankingParameters]) -> list[list[float]]:
    """Pair agreement of every candidate on every voted search, replayed as the specialist asked it."""
    return [
        [
            pair_agreement(
                [item.product.id for item in search_run(SearchRequest(query=v.query, top_k=MAX_TOP_K, **v.request_fields), params=params).recommendations],
                v.pairs,
            )
            for v in voted
        ]
        for params in candidates
    ]


def _folds(count: int, *, folds: int, seed: int) -> list[list[int]]:
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return [[index for position, index in enumerate(order) if position % folds == fold] for fold in range(folds)]


def _objective(ndcg: list[float], agreement: list[float], queries: list[int], voted: list[int]) -> float:
    score = sum(ndcg[i] for i in queries) / max(len(queries), 1)
    if voted:
        score += VOTE_WEIGHT * sum(agreement[i] for i in voted) / len(voted)
    return score


def cross_validated(scores: list[list[float]], *, folds: int, seed: int, agreement: list[list[float]] | None = None) -> tuple[float, float | None]:
    """Mean held-out nDCG@3 over all situations, and mean held-out pair agreement over the voted
    searches (None without votes), each scored by the trial chosen without its fold."""
    queries = len(scores[0]) if scores else 0
    agreement = agreement or [[] for _ in scores]
    voted = len(agreement[0]) if agreement else 0
    query_folds, vote_folds = _folds(queries, folds=folds, seed=seed), _folds(voted, folds=folds, seed=seed + 1)
    ndcg_total = agreement_total = 0.0
    for fold in range(folds):
        train_q = [i for f, members in enumerate(query_folds) if f != fold for i in members]
        train_v = [i for f, members in enumerate(vote_folds) if f != fold for i in members]
        chosen = max(range(len(scores)), key=lambda t: (_objective(scores[t], agreement[t], train_q, train_v), -t))
        ndcg_total += sum(scores[chosen][i] for i in query_folds[fold])
        agreement_total += sum(agreement[chosen][i] for i in vote_folds[fold])
    return ndcg_total / max(queries, 1), (agreement_total / voted if voted else None)


def ranker_tune(
    queries: list[JudgedQuery],
    voted: list[VotedSearch] | None = None,
    *,
    trials: int = 40,
    folds: int = 5,
    seed: int = 7,
    base: RankingParameters = DEFAULT,
    candidates: list[RankingParameters] | None = None,
) -> TuneReport:
    """Fit around `base` (the active parameters); `candidates` replaces the random trials (base first)."""
    voted = voted or []
    candidates = candidates or trial_parameters(trials=trials, seed=seed, base=base)
    scores = ndcg_matrix(queries, candidates)
    agreement = agreement_matrix(voted, candidates)
    everyone_q, everyone_v = list(range(len(queries))), list(range(len(voted)))
    in_sample = max(range(len(candidates)), key=lambda t: (_objective(scores[t], agreement[t], everyone_q, everyone_v), -t))
    held_out, held_out_agreement = cross_validated(scores, folds=folds, seed=seed, agreement=agreement)
    count = max(len(queries), 1)
    return TuneReport(
        trials=len(candidates),
        folds=folds,
        queries=len(queries),
        vote_searches=len(voted),
        vote_pairs=sum(len(v.pairs) for v in voted),
        current_held_out=round(sum(scores[0]) / count, 4),
        fitted_held_out=round(held_out, 4),
        fitted_in_sample=round(sum(scores[in_sample]) / count, 4),
        current_pair_agreement=round(sum(agreement[0]) / len(voted), 4) if voted else None,
        fitted_held_out_pair_agreement=round(held_out_agreement, 4) if held_out_agreement is not None else None,
        base=candidates[0],
        best=candidates[in_sample],
    )
