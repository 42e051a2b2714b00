"""The JSON shape of a search (docs/architecture.md, "Contracts"), shared by the CLI, the API and the export."""

from search.pipeline.budget import within_budget
from search.pipeline.links import display_link
from search.pipeline.run import SearchOutcome
from search.pipeline.score_criteria import CRITERION_KEYS, scores_of
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
    """A recorded search as stored (for export and the API), with every source it cited."""
    return {
        "search_id": log.id,
        "query": log.query,
        "created_at": log.created_at.isoformat(),
        "mode": log.mode,
        "ranker": log.ranker,
        "fallback_reason": log.fallback_reason,
        "context": log.context,
        "note": log.note,
        "budget_note": log.budget_note,
        "message": log.message,
        "timings_ms": log.timings_ms,
        "recommendations": [
            {
                "rank": rec.rank,
                "product_id": rec.product_id,
                "name": rec.product_name,
                "url": rec.url_shown,
                "url_status": rec.url_status,
                "relevance_score": rec.relevance_score,
                "scores": scores_of(rec),
                "similarity": rec.similarity,
                "feedback_multiplier": rec.feedback_multiplier,
                "reasoning": rec.reasoning,
                "benefits_employee": rec.product.benefits_employee if rec.product else "",
                "benefits_employer": rec.product.benefits_employer if rec.product else "",
                "guidelines": [
                    {
                        "chunk_id": c.chunk_id,
                        "document_title": c.document_title,
                        "source": c.source,
                        "section": c.section,
                        "url": c.url,
                        "score": c.score,
                    }
                    for c in rec.citations.all()
                ],
                "price_from_eur": rec.product.price_from_eur if rec.product else None,
                "within_budget": within_budget(rec.product.price_from_eur if rec.product else None, log.context.get("budget_eur")),
            }
            for rec in log.recommendations.all()
        ],
    }


def answer_json(answer) -> dict:
    """The answer JSON of `ask --json` and the guideline-answer API."""
    return {
        "question": answer.question,
        "answer": answer.answer,
        "generated": answer.generated,
        "fallback_reason": answer.fallback_reason,
        "citations": [citation_json(c, with_quote=True) for c in answer.citations],
        "timings_ms": answer.timings_ms,
    }
