"""Multi-query retrieval: the situation's facets as focused sub-queries, each retrieved and fused by rank.

A specialist's situation often mixes several questions: the complaint, the work, the phase of absence
and what the organisation asks. Offline, the facets are the situation's own clauses, labelled by
the same rule tables stage 0 uses; each clause that carries a facet becomes a sub-query. The lists
of the whole situation and of every sub-query are merged with reciprocal rank fusion (k = 60)
before stage 2, so a product that answers one facet well is not drowned by the others.
"""

import logging
import re
from dataclasses import dataclass

from django.conf import settings

from search.pipeline.absence_duration import ABSENCE_CUES, DURATION
from search.pipeline.context import ORGANISATION_SUBJECT, TEAM_SUBJECT
from search.pipeline.roles import ROLE_PATTERNS, SECTOR_PATTERNS
from search.pipeline.fusion import reciprocal_rank_fusion
from search.pipeline.llm_client import LLMError, chat_json

logger = logging.getLogger(__name__)

MAX_SUB_QUERIES = 4  # with the situation itself: at most 5 queries
MIN_FACET_WORDS = 2
MAX_SUB_QUERY_LENGTH = 200
LLM_SYSTEM = (
    "Je helpt een zoekmachine voor arbeidsgerelateerde interventies. Splits de situatie in 2 tot 4 korte, "
    "zelfstandige Nederlandse zoekvragen, één per aspect (de klacht, de werksituatie, de fase van verzuim, "
    "de vraag van de organisatie); alleen aspecten die in de situatie staan. Noem geen namen. "
    'Antwoord uitsluitend met JSON: {"deelvragen": [{"tekst": "...", "aspect": "klacht|werk|fase|organisatie"}]}.'
)
FACETS = ("klacht", "werk", "fase", "organisatie")
_CLAUSE_BREAK = re.compile(r"[.;:!?\n]+|,\s+|\s+(?:en|maar|terwijl|omdat|want|waardoor)\s+", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


@dataclass(frozen=True)
class SubQuery:
    text: str
    facet: str  # "klacht", "werk", "fase" or "organisatie"


def facet_queries(query: str) -> list[SubQuery]:
    """The situation's clauses that carry a facet, one sub-query each; none when it is one facet only."""
    facets: list[SubQuery] = []
    seen: set[str] = set()
    for clause in _CLAUSE_BREAK.split(query):
        clause = clause.strip(" -–()\"'")
        key = clause.lower()
        if len(_WORD.findall(clause)) < MIN_FACET_WORDS or key in seen or key == query.strip().lower():
            continue
        seen.add(key)
        facets.append(SubQuery(clause, _facet_of(clause)))
    return facets[:MAX_SUB_QUERIES] if len(facets) >= 2 else []


def llm_facet_queries(query: str) -> list[SubQuery] | None:
    """The LLM's sub-queries for the situation, validated and bounded; None when it gives none we can use."""
    try:
        data = chat_json(system=LLM_SYSTEM, user=query, timeout=settings.HYDE_TIMEOUT_S, use="queries", max_tokens=400)
    except LLMError as error:
        logger.warning("LLM sub-queries skipped, using the situation's clauses: %s", error)
        return None
    entries = data.get("deelvragen")
    queries: list[SubQuery] = []
    seen = {query.strip().lower()}
    for entry in entries if isinstance(entries, list) else []:
        text = entry.get("tekst") if isinstance(entry, dict) else None
        if not isinstance(text, str) or len(_WORD.findall(text)) < 1 or len(text) > MAX_SUB_QUERY_LENGTH:
            continue
        text = " ".join(text.split())
        if text.lower() in seen:
            continue
        seen.add(text.lower())
        facet = entry.get("aspect") if entry.get("aspect") in FACETS else _facet_of(text)
        queries.append(SubQuery(text, facet))
    return queries[:MAX_SUB_QUERIES] or None


def _facet_of(clause: str) -> str:
    if TEAM_SUBJECT.search(clause) or ORGANISATION_SUBJECT.search(clause):
        return "organisatie"
    if DURATION.search(clause) or ABSENCE_CUES.search(clause):
        return "fase"
    if any(re.search(rf"\b(?:{pattern})", clause, re.IGNORECASE) for _, pattern in ROLE_PATTERNS + SECTOR_PATTERNS):
        return "werk"
    return "klacht"


def broadest_facet(queries: list[SubQuery]) -> SubQuery | None:
    """The complaint clause with the most words: the last resort of the rewrite loop."""
    complaints = [q for q in queries if q.facet == "klacht"]
    return max(complaints, key=lambda q: len(_WORD.findall(q.text)), default=None)


def fuse_lists(lists: list[list[int]]) -> list[int]:
    """Product ids ordered by reciprocal rank over the situation's list and its sub-queries' lists."""
    fused = reciprocal_rank_fusion(lists)
    return sorted(fused, key=fused.get, reverse=True)
