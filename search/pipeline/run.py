"""The search pipeline end to end: context → stage 1 → canonicalise → weak-query handling → stage 2 →
guideline linking → feedback → links. Persistence is the caller's choice (see search.services)."""

import logging
import time
from dataclasses import dataclass, field

from django.conf import settings

from catalog.models import Audience, Category, Product
from embeddings.selectors import QueryEmbedding, query_embedding
from lexical.terms import QueryTerms, prefix_stems, query_terms
from lexical.thesaurus import expansion_terms
from search.pipeline import expansion
from search.pipeline.budget import over_budget_note, within_budget
from search.pipeline.canonical import canonicalise
from search.pipeline.context import SituationContext, context_extract
from search.pipeline.evidence import choose_citations, evidence_for_products
from search.pipeline.feedback import feedback_multipliers
from search.pipeline.grading import llm_grade
from search.pipeline.llm_client import llm_configured
from search.pipeline.multi_query import (
    SubQuery,
    broadest_facet,
    facet_queries,
    fuse_lists,
    llm_facet_queries,
)
from search.pipeline.passages import passages_retrieve
from search.pipeline.ranking import select_ranker
from search.pipeline.ranking.criteria import phase_suitability
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.ranking.signals import (
    guideline_strength,
    matched_problem_areas,
    topical_scores,
)
from search.pipeline.ranking.versions import active_ranking
from search.pipeline.request import (
    SearchRequest,
    scrub_names,
    validate_query,
    validate_request,
)
from search.pipeline.retrieval import Candidate, candidates_fetch, fuse
from search.pipeline.score_criteria import zero_scores
from search.pipeline.types import CitedChunk, Scored

logger = logging.getLogger(__name__)

# The seed's texts (FEAT-012), exactly: other tools match on them.
FEW_RESULTS_NOTE = (
    "Minder dan 3 relevante opties gevonden in product catalogus. "
    "Overweeg bredere zoektermen of neem contact op met EVI specialist."
)
NO_RESULTS_MESSAGE = (
    "Geen producten gevonden voor deze zoekopdracht. Neem contact op met een EVI specialist voor maatwerk advies."
)
MIN_QUALIFYING = 3
MAX_REWRITES = 2
FALLBACK_PASSAGES = 3


@dataclass
class SearchOutcome:
    query: str
    mode: str
    context: SituationContext
    ranker: str = ""
    fallback_reason: str = ""
    recommendations: list[Scored] = field(default_factory=list)
    workplace_suggestions: list[Scored] = field(default_factory=list)
    note: str = ""
    budget_note: str = ""
    message: str = ""
    fallback_guidelines: list[CitedChunk] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    candidate_count: int = 0
    canonical_count: int = 0
    expanded: bool = False
    hyde_used: bool = False
    retrieval: dict = field(default_factory=dict)  # sub-queries, grading and rewrites (search.pipeline.multi_query)
    ranking_version: int | None = None  # the RankingParameterSet that ranked; None: built-in parameters
    search_id: int | None = None


def search_run(request: SearchRequest, *, params: RankingParameters | None = None) -> SearchOutcome:
    """Run one search; without `params`, the active ranking version's parameters rank (and are recorded)."""
    started = time.perf_counter()
    validate_request(request)
    version_id = None
    if params is None:
        active = active_ranking()
        version_id, params = active.version_id, active.params
    query = scrub_names(validate_query(request.query), request.employee_name, request.company_name)
    timings: dict[str, float] = {}

    tick = time.perf_counter()
    context = context_extract(query, role=request.role, sector=request.sector, duration=request.duration, budget=request.budget)
    timings["context"] = _ms(tick)

    tick = time.perf_counter()
    embedding = query_embedding(query)
    timings["embed"] = _ms(tick)

    outcome = SearchOutcome(query=query, mode=request.mode, context=context, ranking_version=version_id)
    tick = time.perf_counter()
    candidates, names, in_domain, failed = _stage1(query_terms(query), embedding, floor=settings.SEARCH_SIMILARITY_FLOOR)
    sub_queries = _sub_queries(query) if in_domain and request.multi_query and request.mode != "vector" else []
    if sub_queries:
        candidates = _with_sub_queries(candidates, names, sub_queries, embedding.model)
    outcome.candidate_count = len(candidates)
    graded = {"passed": len(candidates), "failed": failed, "by": "drempels"}
    if in_domain and request.mode == "two-stage" and settings.LLM_GRADING and llm_configured():
        candidates, graded = llm_grade(query, candidates) or (candidates, graded)
    rewrites = 0
    for rewrite in _rewrites(query, embedding, sub_queries) if in_domain and request.mode != "vector" else ():
        if graded["passed"] >= MIN_QUALIFYING or rewrites == MAX_REWRITES:
            break
        expanded = rewrite()
        if expanded is None:
            continue  # this step does not apply here (no wijzer line matches, no LLM, one facet only)
        rewrites += 1
        outcome.expanded |= expanded.wijzer_used
        outcome.hyde_used |= expanded.hyde_used
        embedding = expanded.embedding
        more, more_names, _, more_failed = _stage1(query_terms(query, extra=expanded.text), embedding, floor=settings.SEARCH_WEAK_FLOOR)
        names.update(more_names)
        added = len(_merge(candidates, more)) - len(candidates)
        candidates = _merge(candidates, more)
        graded = {**graded, "passed": graded["passed"] + added, "failed": graded["failed"] + more_failed}
    strong_ids = _strong_ids(candidates)
    outcome.retrieval = {
        "queries": [query] + [q.text for q in sub_queries],
        "facets": ["situatie"] + [q.facet for q in sub_queries],
        "rewrites": rewrites,
        "graded": graded,
        "hyde_used": outcome.hyde_used,
        "expanded": outcome.expanded,
    }
    outcome.canonical_count = len(candidates)
    timings["stage1"] = _ms(tick)

    tick = time.perf_counter()
    strong_count = len(strong_ids)
    pool = candidates if request.mode == "vector" else candidates[: settings.SEARCH_STAGE2_POOL]
    if request.mode == "vector":
        pool = sorted(pool, key=lambda c: c.similarity, reverse=True)
    products = Product.objects.in_bulk([c.product_id for c in pool])
    topical = topical_scores(pool, floor=settings.SEARCH_SIMILARITY_FLOOR, p=params)
    own_words, synonyms = prefix_stems(query), prefix_stems(" ".join(expansion_terms(query)))
    scored = [
        Scored(
            product=products[c.product_id],
            similarity=round(c.similarity, 4),
            topical=topical[c.product_id],
            matched_terms=matched_problem_areas(products[c.product_id], own_words, synonyms - own_words),
        )
        for c in pool
        if c.product_id in products
    ]
    evidence = evidence_for_products(product_ids=[s.product.id for s in scored], embedding=embedding) if scored else {}
    for item in scored:
        item.citations = choose_citations(evidence.get(item.product.id, []), threshold=settings.CITATION_MIN_SCORE)

    if request.mode == "two-stage" and scored:
        ranker, fallback_reason = select_ranker()
        strength = {s.product.id: guideline_strength(s.citations, params) for s in scored}
        scored, outcome.ranker, outcome.fallback_reason = ranker.rank(scored, context, strength, query=query, params=params)
        multipliers, feedback_problem = feedback_multipliers([s.product.id for s in scored])
        for item in scored:
            item.feedback_multiplier = multipliers.get(item.product.id, 1.0)
            item.finalise()
        scored.sort(key=lambda s: s.relevance, reverse=True)
        outcome.fallback_reason = "; ".join(r for r in (fallback_reason, outcome.fallback_reason, feedback_problem) if r)
    else:
        outcome.ranker = "none"
        for item in scored:
            item.scores = zero_scores()
            item.relevance = round(item.similarity if request.mode == "vector" else item.topical, 4)
    # The pure-vector baseline has no notion of evidence strength.
    strong = [item for item in scored if request.mode == "vector" or item.product.id in strong_ids]
    strong, over_budget = _split_by_budget(strong, context.budget_eur)
    strong_count -= len(over_budget)
    if in_domain and len(strong) < MIN_QUALIFYING:
        # Thin evidence for a question about work and health: what matched, then broad, safe first
        # steps (an early consult, the company doctor's consultation hour) instead of weak guesses.
        steps, _ = _split_by_budget(first_steps(context, exclude={item.product.id for item in strong}, p=params), context.budget_eur)
        strong += steps
    outcome.recommendations = strong[: request.top_k]
    if over_budget:
        outcome.budget_note = over_budget_note(len(over_budget), context.budget_eur)
    workplace, _ = _split_by_budget(_workplace_suggestions(scored, outcome.recommendations, context, params), context.budget_eur)
    outcome.workplace_suggestions = workplace
    timings["stage2"] = _ms(tick)

    if not outcome.recommendations:
        outcome.message = NO_RESULTS_MESSAGE
        # The passages a guideline question with these words would cite, under the same abstention rule.
        closest = passages_retrieve(query)
        outcome.fallback_guidelines = closest.best(FALLBACK_PASSAGES) if closest.answers_question else []
    if outcome.recommendations and strong_count < MIN_QUALIFYING:
        outcome.note = FEW_RESULTS_NOTE
    timings["total"] = _ms(started)
    outcome.timings_ms = timings
    return outcome


def _stage1(terms: QueryTerms, embedding: QueryEmbedding, *, floor: float) -> tuple[list[Candidate], dict[int, str], bool, int]:
    """Graded, fused, canonical candidates; whether the query is about this domain at all; and how many
    candidates failed the grade (the calibrated similarity and lexical floors)."""
    raw = candidates_fetch(terms=terms, query=embedding, limit=settings.SEARCH_CANDIDATES)
    in_domain = any(
        max(c.coverage, c.wijzer_coverage) >= settings.SEARCH_QUERY_MIN_COVERAGE
        or c.similarity >= settings.SEARCH_QUERY_MIN_SIMILARITY
        for c in raw
    )
    if not in_domain:
        return [], {}, False, len(raw)
    kept = [c for c in raw if c.similarity >= floor or c.coverage >= settings.SEARCH_LEXICAL_FLOOR]
    names = {c.product_id: c.name for c in kept}
    fused = fuse(kept, method=settings.SEARCH_FUSION)
    return canonicalise(fused, names, limit=settings.SEARCH_CANDIDATES), names, True, len(raw) - len(kept)


def _sub_queries(query: str) -> list[SubQuery]:
    """The LLM's sub-queries when one is configured and answers usefully, else the situation's own clauses."""
    return (llm_configured() and llm_facet_queries(query)) or facet_queries(query)


def _with_sub_queries(candidates: list[Candidate], names: dict[int, str], sub_queries: list[SubQuery], model: str) -> list[Candidate]:
    """The situation's candidates and its sub-queries' candidates in one list, ordered by reciprocal rank."""
    lists = [[c.product_id for c in candidates]]
    by_id = {c.product_id: c for c in candidates}
    for sub_query in sub_queries:
        found, found_names, in_domain, _ = _stage1(
            query_terms(sub_query.text), query_embedding(sub_query.text, model=model), floor=settings.SEARCH_SIMILARITY_FLOOR
        )
        if not in_domain:
            continue
        names.update(found_names)
        lists.append([c.product_id for c in found])
        for candidate in found:
            by_id.setdefault(candidate.product_id, candidate)  # the situation's own scores where it has them
    ordered = fuse_lists(lists)
    return canonicalise([by_id[i] for i in ordered], names, limit=settings.SEARCH_CANDIDATES)


def _rewrites(query: str, embedding: QueryEmbedding, sub_queries: list[SubQuery]):
    """The rewrite steps in order, each a callable that gives the widened query or None where it does not apply:
    the interventiewijzer lines, then HyDE (LLM), then the broadest facet on its own."""
    widened: list[expansion.Expansion] = []

    def wijzer():
        result = expansion.wijzer_expansion(query, embedding)
        widened.extend([result] if result else [])
        return result

    def hyde():
        base = widened[-1] if widened else None
        return expansion.hyde_expansion(query, base.embedding if base else embedding, text=base.text if base else query)

    def facet():
        broadest = broadest_facet(sub_queries or facet_queries(query))
        if broadest is None:
            return None
        return expansion.Expansion(f"{query} {broadest.text}", query_embedding(broadest.text, model=embedding.model))

    return (wijzer, hyde, facet)


def _split_by_budget(items: list[Scored], budget_eur: int | None) -> tuple[list[Scored], list[Scored]]:
    """Products whose lowest price fits the budget (or is unknown), and those it rules out."""
    kept, ruled_out = [], []
    for item in items:
        item.within_budget = within_budget(item.product.price_from_eur, budget_eur)
        (ruled_out if item.within_budget is False else kept).append(item)
    return kept, ruled_out


def _strong_ids(candidates: list[Candidate]) -> set[int]:
    """Candidates that are evidence of their own: they match the query's words, or are close in meaning.

    The similarity floor keeps loosely related products as candidates; when fewer than three
    candidates are more than that ("migraine"), the advice is completed with broad first steps.
    """
    return {
        c.product_id
        for c in candidates
        if max(c.coverage, c.wijzer_coverage) >= settings.SEARCH_LEXICAL_FLOOR or c.similarity >= settings.SEARCH_STRONG_SIMILARITY
    }


def first_steps(context: SituationContext, *, exclude: set[int], p: RankingParameters = DEFAULT) -> list[Scored]:
    """The catalog's broad first steps, the ones that suit this phase of absence first."""
    products = [p for p in Product.objects.filter(is_active=True, is_first_step=True) if p.id not in exclude]
    suited = sorted(((product, *phase_suitability(product, context, p)) for product in products), key=lambda row: (-row[1], row[0].name))
    steps = []
    for product, suitability, why in suited:
        base = p.first_step_base
        scores = {"impact": base * suitability, "fit": base, "guidelines": 0.0, "feasibility": base}
        item = Scored(product=product, similarity=0.0, topical=0.0, scores=scores)
        item.reasoning = (
            "Breed eerste stap: de beschrijving wijst niet duidelijk naar een specifieke interventie; "
            f"dit brengt de situatie snel in kaart{f' ({why})' if why else ''}."
        )
        item.finalise()
        steps.append(item)
    return steps


def _merge(first: list[Candidate], second: list[Candidate]) -> list[Candidate]:
    seen = {c.product_id for c in first}
    return first + [c for c in second if c.product_id not in seen]


def _workplace_suggestions(scored: list[Scored], shown: list[Scored], context: SituationContext, p: RankingParameters = DEFAULT) -> list[Scored]:
    """Preventive or workplace products for the employer that fit the situation but are not among the top K."""
    shown_ids = {s.product.id for s in shown}
    workplace = [
        s for s in scored
        if s.product.id not in shown_ids
        and (s.product.audience in (Audience.TEAM, Audience.ORGANISATIE) or s.product.category in (Category.ARBEIDSOMSTANDIGHEDEN, Category.PREVENTIE))
        and s.topical >= p.workplace_topical_min
    ]
    return workplace[:2]


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)
