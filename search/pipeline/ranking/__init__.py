"""Stage-2 rankers behind one interface: `rank(scored, context, guideline_strength, query=…, params=…)`
returns the scored candidates, the name of the ranker that produced the scores and, when it
had to fall back, why."""

from django.conf import settings

from search.pipeline.context import SituationContext
from search.pipeline.ranking.criteria import rank_criteria
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.types import Scored


class CriteriaRanker:
    name = "criteria"

    def rank(self, scored: list[Scored], context: SituationContext, strength: dict[int, float], *, query: str, params: RankingParameters = DEFAULT):
        return rank_criteria(scored, context, strength, params), self.name, ""


def select_ranker() -> tuple[object, str]:
    """The configured ranker; `auto` means the LLM ranker when an API key is set."""
    wanted = settings.RANKER
    if wanted == "auto":
        wanted = "llm" if settings.LLM_API_KEY else "criteria"
    if wanted == "llm":
        from search.pipeline.ranking.llm import LLMRanker

        return LLMRanker(), ""
    return CriteriaRanker(), ""
