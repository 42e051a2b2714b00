"""The JSON shape of a search (DESIGN.md §5), shared by the CLI, the API and the export."""

from search.pipeline.links import display_link
from search.pipeline.run import SearchOutcome
from search.pipeline.types import CitedChunk, Scored


def citation_json(citation: CitedChunk, *, with_quote: bool = False) -> dict:
    data = {
        "chunk_id": citation.chunk_id,
        "document_title": citation.document_title,
        "source": citation.source,
        "section": citation.section,
        "url": citation.url,
        "score": citation.score,
    }
    if with_quote:
        data["quote"] = citation.content
    return data


def recommendation_json(item: Scored, rank: int) -> dict:
    link = display_link(item.product)
    return {
        "rank": rank,
        "product_id": item.product.id,
        "name": item.product.name,
        "url": link.url,
        "url_status": link.status,
        "url_note": link.note,
        "relevance_score": item.relevance,
        "scores": {key: item.scores.get(key, 0.0) for key in ("impact", "fit", "guidelines", "feasibility")},
        "similarity": item.similarity,
        "feedback_multiplier": item.feedback_multiplier,
        "reasoning": item.reasoning,
        "benefits_employee": item.product.benefits_employee,
        "benefits_employer": item.product.benefits_employer,
        "guidelines": [citation_json(c) for c in item.citations],
    }


def outcome_json(outcome: SearchOutcome, *, query_id=None) -> dict:
    data = {
        "query": outcome.query,
        "mode": outcome.mode,
        "ranker": outcome.ranker,
        "fallback_reason": outcome.fallback_reason,
        "context": outcome.context.as_dict(),
        "recommendations": [recommendation_json(item, rank) for rank, item in enumerate(outcome.recommendations, start=1)],
        "workplace_suggestions": [recommendation_json(item, rank) for rank, item in enumerate(outcome.workplace_suggestions, start=1)],
        "note": outcome.note,
        "message": outcome.message,
        "fallback_guidelines": [citation_json(c, with_quote=True) for c in outcome.fallback_guidelines],
        "timings_ms": outcome.timings_ms,
        "search_id": outcome.search_id,
    }
    if query_id is not None:
        data = {"id": query_id, **data}
    return data
