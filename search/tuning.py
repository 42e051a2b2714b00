"""Fit the stage-2 ranking parameters on judged situations, and say honestly whether it generalises.

Random search around the current parameters: every trial changes a handful of the influential
ones by up to ±50 %. Each trial's nDCG@3 is measured per situation once; k-fold cross-validation then
picks, for every fold, the trial that is best on the other folds and scores it on this fold. The
held-out mean next to the current parameters' mean says whether fitting helps; the in-sample best
is reported only to show how much of that is overfitting.
"""

import random
from dataclasses import asdict, dataclass, fields, replace

from search.evaluation import JudgedQuery, ndcg_at_3
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

# The parameters a trial may move: the mixture of the topical signals, how phase and audience damp
# impact, how much fit, backing and speed count, and the phase penalties that decide most rankings.
TUNABLE = (
    "topical_lexical", "topical_wijzer", "topical_similarity", "impact_suitability_floor", "reach_floor",
    "topical_gate_floor", "fit_audience", "fit_suitability", "speed_weight", "speed_weight_urgent",
    "guideline_strength_span", "before_window", "past_window_start", "unknown_phase", "prevention_absence_product",
)
UNIT_INTERVAL = {name for name in TUNABLE if name != "guideline_strength_span"}


@dataclass
class TuneReport:
    trials: int
    folds: int
    queries: int
    current_held_out: float
    fitted_held_out: float
    fitted_in_sample: float
    best: RankingParameters
    changed: dict[str, tuple[float, float]]

    @property
    def adopt(self) -> bool:
        """A fitted set is only worth adopting when it wins on situations it was not fitted on."""
        return self.fitted_held_out > self.current_held_out


def trial_parameters(*, trials: int, seed: int, base: RankingParameters = DEFAULT, moves: int = 4) -> list[RankingParameters]:
    """The current parameters first, then `trials - 1` random variations of `moves` tunable ones each."""
    rng = random.Random(seed)
    candidates = [base]
    for _ in range(trials - 1):
        changes = {}
        for name in rng.sample(TUNABLE, moves):
            value = getattr(base, name) * rng.uniform(0.5, 1.5)
            changes[name] = round(min(value, 1.0) if name in UNIT_INTERVAL else value, 4)
        candidates.append(replace(base, **changes))
    return candidates


def ndcg_matrix(queries: list[JudgedQuery], candidates: list[RankingParameters]) -> list[list[float]]:
    """nDCG@3 of every candidate parameter set on every situation (the expensive part: one search each)."""
    return [
        [ndcg_at_3([item.product.name for item in search_run(SearchRequest(query=q.query), params=params).recommendations], q.rel, q.expect_empty) for q in queries]
        for params in candidates
    ]


def cross_validated(scores: list[list[float]], *, folds: int, seed: int) -> float:
    """Mean nDCG@3 over all situations, each scored by the trial chosen without its fold."""
    queries = len(scores[0]) if scores else 0
    order = list(range(queries))
    random.Random(seed).shuffle(order)
    fold_of = {index: position % folds for position, index in enumerate(order)}
    total = 0.0
    for fold in range(folds):
        train = [i for i in order if fold_of[i] != fold]
        chosen = max(range(len(scores)), key=lambda t: (sum(scores[t][i] for i in train), -t))
        total += sum(scores[chosen][i] for i in order if fold_of[i] == fold)
    return total / max(queries, 1)


def ranker_tune(queries: list[JudgedQuery], *, trials: int = 40, folds: int = 5, seed: int = 7) -> TuneReport:
    candidates = trial_parameters(trials=trials, seed=seed)
    scores = ndcg_matrix(queries, candidates)
    count = max(len(queries), 1)
    in_sample = max(range(len(candidates)), key=lambda t: (sum(scores[t]), -t))
    best = candidates[in_sample]
    current = asdict(DEFAULT)
    changed = {f.name: (current[f.name], getattr(best, f.name)) for f in fields(best) if getattr(best, f.name) != current[f.name]}
    return TuneReport(
        trials=len(candidates),
        folds=folds,
        queries=len(queries),
        current_held_out=round(sum(scores[0]) / count, 4),
        fitted_held_out=round(cross_validated(scores, folds=folds, seed=seed), 4),
        fitted_in_sample=round(sum(scores[in_sample]) / count, 4),
        best=best,
        changed=changed,
    )
