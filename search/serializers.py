"""The JSON shape of a search (docs/architecture.md, "Contracts"), shared by the CLI, the API and the export."""

from search.models import Recommendation
from search.pipeline.budget import within_budget
from search.pipeline.links import display_link
from search.pipeline.run import SearchOutcome
from search.pipeline.score_criteria import CRITERION_KEYS, scores_of
from search.pipeline.types import CitedChunk, Scored
from search.presentation import cited_from_stored


def citation_json(citation: CitedChunk, *, with_quote: bool = False) -> dict:
    """A cited passage with its provenance: where it is, when this search read it, which text it was."""
    data = {
        "chunk_id": citation.chunk_id,
        "document_title": citation.document_title,
        "source": citation.source,
        "section": citation.section,
        "url": citation.url,
        "score": citation.score,
        "retrieved_at": citation.retrieved_at.isoformat() if citation.retrieved_at else None,
        "content_sha256": citation.content_sha256 or None,
        "used_in_prompt": citation.used_in_prompt,
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
        "scores": {key: item.scores.get(key, 0.0) for key in CRITERION_KEYS},
        "similarity": item.similarity,
        "feedback_multiplier": item.feedback_multiplier,
        "reasoning": item.reasoning,
        "benefits_employee": item.product.benefits_employee,
        "benefits_employer": item.product.benefits_employer,
        "guidelines": [citation_json(c) for c in item.citations],
        "price_from_eur": item.product.price_from_eur,
        "within_budget": item.within_budget,
    }


def outcome_json(outcome: SearchOutcome, *, query_id=None) -> dict:
    """The search JSON of docs/architecture.md; `id` echoes the queries-file id and is null for a single situation."""
    data = {
        "id": query_id,
        "query": outcome.query,
        "mode": outcome.mode,
        "ranker": outcome.ranker,
        "fallback_reason": outcome.fallback_reason,
        "context": outcome.context.as_dict(),
        "retrieval": outcome.retrieval,
        "recommendations": [recommendation_json(item, rank) for rank, item in enumerate(outcome.recommendations, start=1)],
        "workplace_suggestions": [recommendation_json(item, rank) for rank, item in enumerate(outcome.workplace_suggestions, start=1)],
        "note": outcome.note,
        "budget_note": outcome.budget_note,
        "message": outcome.message,
        "fallback_guidelines": [citation_json(c, with_quote=True) for c in outcome.fallback_guidelines],
        "timings_ms": outcome.timings_ms,
        "search_id": outcome.search_id,
    }
    return data


def stored_search_json(log) -> dict:
    """A recorded search as stored (for export and the API), both sections, every source with its provenance.

    The booking link is decided again from the product's current url status, as on the page and in the
    Markdown export, so no export hands out a link the url checker has since found broken.
    """
    recommendations = list(log.recommendations.all())
    return {
        "search_id": log.id,
        "query": log.query,
        "created_at": log.created_at.isoformat(),
        "mode": log.mode,
        "ranker": log.ranker,
        "fallback_reason": log.fallback_reason,
        "context": log.context,
        "retrieval": log.retrieval,
        "note": log.note,
        "budget_note": log.budget_note,
        "message": log.message,
        "timings_ms": log.timings_ms,
        "recommendations": [_stored_recommendation_json(rec, log) for rec in recommendations if rec.section == Recommendation.Section.ADVICE],
        "workplace_suggestions": [
            _stored_recommendation_json(rec, log) for rec in recommendations if rec.section == Recommendation.Section.WORKPLACE
        ],
    }


def _stored_recommendation_json(rec: Recommendation, log) -> dict:
    link = display_link(rec.product) if rec.product else None
    return {
        "rank": rec.rank,
        "product_id": rec.product_id,
        "name": rec.product_name,
        "url": link.url if link else rec.url_shown,
        "url_status": link.status if link else rec.url_status,
        "url_note": link.note if link else "",
        "url_shown_at_search": rec.url_shown,
        "relevance_score": rec.relevance_score,
        "scores": scores_of(rec),
        "similarity": rec.similarity,
        "feedback_multiplier": rec.feedback_multiplier,
        "reasoning": rec.reasoning,
        "benefits_employee": rec.product.benefits_employee if rec.product else "",
        "benefits_employer": rec.product.benefits_employer if rec.product else "",
        "guidelines": [citation_json(cited_from_stored(c)) for c in rec.citations.all()],
        "price_from_eur": rec.product.price_from_eur if rec.product else None,
        "within_budget": within_budget(rec.product.price_from_eur if rec.product else None, log.context.get("budget_eur")),
    }


def answer_json(answer) -> dict:
    """The answer JSON of `ask --json` and the guideline-answer API."""
    return {
        "question": answer.question,
        "answer": answer.answer,
        "generated": answer.generated,
        "fallback_reason": answer.fallback_reason,
        "citations": [citation_json(c, with_quote=True) for c in answer.citations],
        "documents_considered": answer.documents_considered,
        "spelling": answer.spelling,
        "timings_ms": answer.timings_ms,
    }
