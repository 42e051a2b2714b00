"""The four criteria come from one registry: the stored columns, the prompt and the cards agree with it."""

from search.models import Recommendation
from search.pipeline.ranking.llm import SYSTEM
from search.pipeline.score_criteria import CRITERIA, WEIGHTS, scores_as_fields
from search.pipeline.types import relevance_of


def test_it_keeps_the_seeds_weights():
    assert WEIGHTS == {"impact": 0.4, "fit": 0.3, "guidelines": 0.2, "feasibility": 0.1}
    assert relevance_of({"impact": 1.0, "fit": 1.0, "guidelines": 0.0, "feasibility": 0.0}) == 0.7


def test_it_stores_every_criterion_in_its_own_column():
    columns = {field.name for field in Recommendation._meta.get_fields()}
    assert {criterion.field for criterion in CRITERIA} <= columns
    assert scores_as_fields({"impact": 0.5}) == {"impact_score": 0.5, "fit_score": 0.0, "guidelines_score": 0.0, "feasibility_score": 0.0}


def test_it_asks_the_llm_for_every_criterion_with_its_explanation():
    for criterion in CRITERIA:
        assert f"{criterion.key} ({criterion.explanation})" in SYSTEM
        assert f'"{criterion.key}": 0-1' in SYSTEM
