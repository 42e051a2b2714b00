"""The search pipeline end to end: context → stage 1 → canonicalise → weak-query handling → stage 2 →
guideline linking → feedback → links. Persistence is the caller's choice (see search.services)."""

import logging
import time
from dataclasses import dataclass, field

from django.conf import settings

from catalog.models import UNUSED_IN_PYTHON, Audience, Category, Product
from embeddings.selectors import query_embedding
from lexical.terms import prefix_stems
from lexical.thesaurus import abbreviations_spelled_out, expansion_terms
from lexical.typos import spelling_corrected
from search.pipeline.acceptance import acceptance_deviations, with_acceptance
from search.pipeline.body_regions import on_other_body_regions
from search.pipeline.budget import over_budget_note, within_budget
from search.pipeline.conflict import missing_conflict
from search.pipeline.context import SituationContext, context_extract
from search.pipeline.evidence import choose_citations, evidence_for_products
from search.pipeline.feedback import feedback_multipliers
from search.pipeline.passages import passages_retrieve
from search.pipeline.precedents import Precedents, precedents_for, same_text
from search.pipeline.prerequisites import missing_occasion
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
from search.pipeline.retrieval import Candidate
from search.pipeline.score_criteria import zero_scores
from search.pipeline.stage1 import MIN_QUALIFYING, retrieve
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
    typed = scrub_names(validate_query(request.query), request.employee_name, request.company_name)
    query, corrections = spelling_corrected(typed)
    timings: dict[str, float] = {}

    tick = time.perf_counter()
    context = context_extract(query, role=request.role, sector=request.sector, duration=request.duration, budget=request.budget)
    timings["context"] = _ms(tick)

    tick = time.perf_counter()
    embedding = query_embedding(abbreviations_spelled_out(query))
    timings["embed"] = _ms(tick)

    outcome = SearchOutcome(query=typed, mode=request.mode, context=context, ranking_version=version_id)
    tick = time.perf_counter()
    found = retrieve(
        query,
        embedding,
        mode=request.mode,
        multi_query=request.multi_query,
        occasions=context.occasions,
        context_finds_a_matter=context.names_a_matter,
        held_out_source=request.held_out_source,
    )
    candidates, strong_ids, in_domain, embedding = found.candidates, found.strong_ids, found.in_domain, found.embedding
    outcome.candidate_count, outcome.retrieval = found.candidate_count, found.retrieval
    outcome.expanded, outcome.hyde_used = found.retrieval["expanded"], found.retrieval["hyde_used"]
    outcome.canonical_count = len(candidates)
    outcome.retrieval["spelling"] = corrections  # typed word -> the word searched, shown under the query
    timings["stage1"] = _ms(tick)

    tick = time.perf_counter()
    pool = candidates if request.mode == "vector" else candidates[: settings.SEARCH_STAGE2_POOL]
    if request.mode == "vector":
        pool = sorted(pool, key=lambda c: c.similarity, reverse=True)
    precedents = Precedents()
    if request.mode == "two-stage" and in_domain:
        precedents = precedents_for(query, held_out_source=request.held_out_source, p=params, context=context)
        pool, strong_ids = with_precedent_candidates(pool, strong_ids, precedents, params)
    strong_count = len(strong_ids)
    products = Product.objects.defer(*UNUSED_IN_PYTHON).in_bulk([c.product_id for c in pool])
    topical = topical_scores(pool, floor=settings.SEARCH_SIMILARITY_FLOOR, p=params)
    if request.mode == "two-stage" and in_domain:
        topical = with_acceptance(topical, acceptance_deviations(held_out_source=request.held_out_source, p=params), params)
    own_words, synonyms = prefix_stems(query), prefix_stems(" ".join(expansion_terms(query)))
    scored = [
        Scored(
            product=products[c.product_id],
            similarity=round(c.similarity, 4),
            topical=topical[c.product_id],
            matched_terms=matched_problem_areas(products[c.product_id], own_words, synonyms - own_words),
            precedent=precedents.votes.get(c.product_id, 0.0),
            precedent_examples=[e for e in precedents.examples.get(c.product_id, []) if not same_text(e, query)],
        )
        for c in pool
        if c.product_id in products
    ]
    evidence = evidence_for_products(product_ids=[s.product.id for s in scored], embedding=embedding) if scored else {}
    for item in scored:
        backing = [c for c in evidence.get(item.product.id, []) if not on_other_body_regions(f"{c.document_title} {c.section}", context.body_regions)]
        item.citations = choose_citations(backing, threshold=settings.CITATION_MIN_SCORE)

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
    if request.mode == "two-stage":
        # A product made for an occasion the situation does not name (a pregnancy, a liable other party, a
        # death) never qualifies, however few others do: broad first steps take its place. Nor does one with no
        # impact at all, in practice one the judged situations' votes brought to nothing ("Vroegconsult
        # fysiotherapie" at 12 weeks): over 45 judged sets that took 3 forbidden products out of a top 3 and one
        # acceptable one (README).
        # Likewise mediation where the situation names no conflict or disagreement at work (search.pipeline.conflict).
        qualifying = [
            item
            for item in strong
            if not missing_occasion(item.product.name, context.occasions)
            and not missing_conflict(item.product.name, context.conflict_named)
            and item.scores["impact"] > 0
        ]
        strong_count -= len(strong) - len(qualifying)
        strong = qualifying
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


def with_precedent_candidates(
    pool: list[Candidate], strong: set[int], precedents: Precedents, p: RankingParameters
) -> tuple[list[Candidate], set[int]]:
    """The pool with the products that the closest judged situations clearly chose, and those counted as
    evidence of their own: specialists chose them for situations like this one, whatever its words."""
    chosen = {product_id for product_id, vote in precedents.votes.items() if vote >= p.precedent_candidate_min}
    present = {c.product_id for c in pool}
    added = [Candidate(product_id, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0.0) for product_id in sorted(chosen - present)]
    return pool + added, strong | chosen


def _split_by_budget(items: list[Scored], budget_eur: int | None) -> tuple[list[Scored], list[Scored]]:
    """Products whose lowest price fits the budget (or is unknown), and those it rules out."""
    kept, ruled_out = [], []
    for item in items:
        item.within_budget = within_budget(item.product.price_from_eur, budget_eur)
        (ruled_out if item.within_budget is False else kept).append(item)
    return kept, ruled_out


def first_steps(context: SituationContext, *, exclude: set[int], p: RankingParameters = DEFAULT) -> list[Scored]:
    """The catalog's broad first steps, the ones that suit this phase of absence first."""
    products = [p for p in Product.objects.defer(*UNUSED_IN_PYTHON).filter(is_active=True, is_first_step=True) if p.id not in exclude]
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
