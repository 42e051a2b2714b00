"""The four criteria every recommendation is scored on: one registry for the pipeline, the LLM
prompt, the cards, the JSON, the stored recommendation and the admin.

The weights are the seed's top-level formula (0.4 impact, 0.3 fit, 0.2 guidelines, 0.1
feasibility); how each score is computed is the ranker's (search.pipeline.ranking).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Criterion:
    key: str  # in score dicts, the JSON and the LLM's answer
    weight: float
    label: str  # Dutch, on the cards
    explanation: str  # Dutch, what the score means (the LLM prompt)
    field: str  # the Recommendation column that stores it


CRITERIA = (
    Criterion("impact", 0.4, "Impact op verzuim en functioneren", "effect op verzuim en functioneren", "impact_score"),
    Criterion("fit", 0.3, "Fit met functie en situatie", "past bij functie, sector, fase en randvoorwaarden", "fit_score"),
    Criterion("guidelines", 0.2, "Aansluiting bij richtlijnen", "steun in Nederlandse richtlijnen", "guidelines_score"),
    Criterion("feasibility", 0.1, "Haalbaarheid en snelheid", "snel en haalbaar", "feasibility_score"),
)
CRITERION_KEYS = tuple(criterion.key for criterion in CRITERIA)
WEIGHTS = {criterion.key: criterion.weight for criterion in CRITERIA}


def zero_scores() -> dict[str, float]:
    return dict.fromkeys(CRITERION_KEYS, 0.0)


def scores_as_fields(scores: dict[str, float]) -> dict[str, float]:
    """Scores keyed by the Recommendation columns that store them."""
    return {criterion.field: scores.get(criterion.key, 0.0) for criterion in CRITERIA}


def scores_of(recommendation) -> dict[str, float]:
    """A stored recommendation's scores, keyed by criterion."""
    return {criterion.key: getattr(recommendation, criterion.field) for criterion in CRITERIA}
