"""Stage-2 inputs computed from stage 1 and from the evidence: topical match, matched problem areas
and guideline backing."""

from django.conf import settings

from catalog.models import Product
from lexical.terms import prefix_stems
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.retrieval import Candidate
from search.pipeline.types import CitedChunk, clamp


def topical_scores(pool: list[Candidate], *, floor: float, p: RankingParameters = DEFAULT) -> dict[int, float]:
    """How squarely each product addresses the situation, from the three stage-1 signals, in [0, 1].

    Products found only through a rewrite of a weak query were scored on that longer rewrite, whose
    sums are on another scale than the specialist's own words: each group is scaled on its own
    maxima, and the rewrite's group is worth `widened_topical` of the own group ("zwanger" put
    psychologists found through the wijzer lines above the pregnancy consult it names).
    """
    own = [c for c in pool if not c.widened]
    widened = [c for c in pool if c.widened]
    if not (own and widened):
        return _topical(pool, floor=floor, p=p)
    rewritten = {product_id: round(score * p.widened_topical, 4) for product_id, score in _topical(widened, floor=floor, p=p).items()}
    return {**_topical(own, floor=floor, p=p), **rewritten}


def _topical(pool: list[Candidate], *, floor: float, p: RankingParameters) -> dict[int, float]:
    max_lexical = max((c.lexical for c in pool), default=0.0)
    max_wijzer = max((c.wijzer for c in pool), default=0.0)
    max_similarity = max((c.similarity for c in pool), default=0.0)
    similarity_span = max(max_similarity - floor, p.similarity_span_min)
    return {
        c.product_id: round(
            clamp(
                p.topical_lexical * c.lexical / max(max_lexical, p.lexical_scale_min)
                + p.topical_wijzer * c.wijzer / max(max_wijzer, p.wijzer_scale_min)
                + p.topical_similarity * clamp((c.similarity - floor) / similarity_span)
            ),
            4,
        )
        for c in pool
    }


def guideline_strength(citations: list[CitedChunk], p: RankingParameters = DEFAULT) -> float:
    """From 0.5 at the citation threshold up to 1 a span above it; `guideline_uncited` without a citation."""
    if not citations:
        return p.guideline_uncited
    threshold = settings.CITATION_MIN_SCORE
    return round(clamp(0.5 + 0.5 * (citations[0].score - threshold) / p.guideline_strength_span), 4)


def matched_problem_areas(product: Product, own_words: set[str], synonyms: set[str]) -> list[str]:
    """The product's problem areas the situation mentions (as lexical.terms.prefix_stems): the
    specialist's own words first, then synonyms."""
    matched_own, matched_synonym = [], []
    for tag in product.problem_areas:
        tag_prefixes = prefix_stems(tag)
        if tag_prefixes & own_words:
            matched_own.append(tag)
        elif tag_prefixes & synonyms:
            matched_synonym.append(tag)
    return matched_own + matched_synonym
