"""The `llm` ranker: an LLM scores the candidates; our code validates everything it says.

It receives the situation (names already replaced by placeholders) and the candidates, never
the employee's or company's name. Unknown product ids are dropped, scores are clamped to [0, 1],
candidates it skipped keep their criteria scores, relevance is recomputed by us, and a hard
phase mismatch found by the criteria rules (prevention for someone absent for months,
2e spoor for a prevention question) caps the LLM's impact score: with an LLM the advice gets
better, not different. Any failure falls back to the criteria ranking for that search.
"""

import json
import logging
import math

from django.conf import settings

from search.pipeline.context import SituationContext
from search.pipeline.llm_client import LLMError, chat_json, llm_product_id
from search.pipeline.ranking.criteria import phase_suitability, rank_criteria
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.score_criteria import CRITERIA, CRITERION_KEYS
from search.pipeline.types import Scored, clamp

logger = logging.getLogger(__name__)

HARD_MISMATCH = 0.15

SYSTEM = (
    "Je bent een ervaren Nederlandse arbeidsdeskundige. Beoordeel per kandidaat-interventie hoe goed die past "
    "bij de situatie, met scores tussen 0 en 1: "
    + ", ".join(f"{criterion.key} ({criterion.explanation})" for criterion in CRITERIA)
    + ". Geef per kandidaat een korte Nederlandse onderbouwing (1-3 zinnen) die uitlegt waarom juist deze "
    'interventie bij deze situatie past. Antwoord uitsluitend met JSON: {"rankings": [{"product_id": <id>, '
    + "".join(f'"{key}": 0-1, ' for key in CRITERION_KEYS)
    + '"reasoning": "...", '
    '"guideline_titles": ["titel van een meegegeven richtlijn", ...]}]}.'
)


class LLMRanker:
    name = "llm"

    def rank(self, scored: list[Scored], context: SituationContext, strength: dict[int, float], *, query: str, params: RankingParameters = DEFAULT):
        rank_criteria(scored, context, strength, params)  # the baseline, and the filler for anything the LLM leaves out
        try:
            data = chat_json(system=SYSTEM, user=_prompt(scored, context, query), timeout=settings.LLM_TIMEOUT_S, use="ranking")
            applied = _apply(data, scored, context)
        except LLMError as error:
            logger.warning("LLM ranking failed, using criteria: %s", error)
            return scored, "criteria", f"llm: {error}"
        if not applied:
            return scored, "criteria", "llm: no usable rankings"
        for item in scored:  # the prompt named every candidate's guideline documents
            for citation in item.citations:
                citation.used_in_prompt = True
        return scored, self.name, ""


def _prompt(scored: list[Scored], context: SituationContext, query: str) -> str:
    candidates = [
        {
            "product_id": item.product.id,
            "naam": item.product.name,
            "omschrijving": item.product.description[:600],
            "fase": item.product.phase,
            "verzuim_weken_van_tot": [item.product.absence_weeks_min, item.product.absence_weeks_max],
            "doelgroep": item.product.audience,
            "problemen": item.product.problem_areas,
            "start_binnen_dagen": item.product.time_to_start_days,
            "richtlijnen": [c.document_title for c in item.citations],
        }
        for item in scored
    ]
    return json.dumps(
        {"situatie": query, "context": context.summary(), "kandidaten": candidates}, ensure_ascii=False
    )


def _apply(data: dict, scored: list[Scored], context: SituationContext) -> int:
    """Merge validated LLM scores into the candidates; returns how many candidates the LLM scored."""
    rankings = data.get("rankings")
    if not isinstance(rankings, list):
        raise LLMError("no 'rankings' list in the answer")
    by_id = {item.product.id: item for item in scored}
    applied = 0
    for entry in rankings:
        if not isinstance(entry, dict):
            continue
        item = by_id.get(llm_product_id(entry.get("product_id")))
        if item is None:
            continue  # an id we did not offer (or no id at all): dropped
        scores = {key: _score(entry.get(key), item.scores[key]) for key in CRITERION_KEYS}
        suitability, _ = phase_suitability(item.product, context)
        if suitability <= HARD_MISMATCH:
            scores["impact"] = min(scores["impact"], item.scores["impact"])
        item.scores = scores
        reasoning = entry.get("reasoning")
        if isinstance(reasoning, str) and reasoning.strip():
            item.reasoning = reasoning.strip()[:800]
        titles = entry.get("guideline_titles")
        if isinstance(titles, list):
            # A proposed title that matches none of the offered documents is dropped; matching ones go first.
            wanted = [t for t in titles if isinstance(t, str)]
            item.citations.sort(key=lambda c: 0 if c.document_title in wanted else 1)
        applied += 1
    return applied


def _score(value, fallback: float) -> float:
    """A finite number clamped to 0..1; anything else keeps the criteria score."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return fallback
    return round(clamp(float(value)), 4)
