"""Writes of the search app: recording searches with their provenance, and feedback votes."""

from django.db import transaction

from search.models import Citation, Recommendation, SearchLog
from search.pipeline.links import display_link
from search.pipeline.run import SearchOutcome, SearchRequest, search_run


def search_perform(*, request: SearchRequest, user=None) -> SearchOutcome:
    """Run a search and record it (SearchLog, Recommendations, Citations) in one transaction."""
    outcome = search_run(request)
    outcome.search_id = search_log_record(outcome=outcome, user=user, top_k=request.top_k).id
    return outcome


def search_log_record(*, outcome: SearchOutcome, user=None, top_k: int = 3) -> SearchLog:
    with transaction.atomic():
        log = SearchLog.objects.create(
            user=user if user is not None and user.is_authenticated else None,
            query=outcome.query,
            context=outcome.context.as_dict(),
            mode=outcome.mode,
            top_k=top_k,
            ranker=outcome.ranker,
            fallback_reason=outcome.fallback_reason[:300],
            candidate_count=outcome.candidate_count,
            canonical_count=outcome.canonical_count,
            expanded=outcome.expanded,
            hyde_used=outcome.hyde_used,
            note=outcome.note,
            message=outcome.message,
            timings_ms=outcome.timings_ms,
        )
        for rank, item in enumerate(outcome.recommendations, start=1):
            link = display_link(item.product)
            recommendation = Recommendation.objects.create(
                search=log,
                product=item.product,
                product_name=item.product.name,
                rank=rank,
                relevance_score=item.relevance,
                impact_score=item.scores.get("impact", 0.0),
                fit_score=item.scores.get("fit", 0.0),
                guidelines_score=item.scores.get("guidelines", 0.0),
                feasibility_score=item.scores.get("feasibility", 0.0),
                similarity=item.similarity,
                feedback_multiplier=item.feedback_multiplier,
                reasoning=item.reasoning,
                url_shown=link.url,
                url_status=link.status,
            )
            Citation.objects.bulk_create(
                Citation(
                    recommendation=recommendation,
                    chunk_id=citation.chunk_id,
                    position=position,
                    score=citation.score,
                    document_title=citation.document_title,
                    source=citation.source,
                    section=citation.section,
                    url=citation.url,
                )
                for position, citation in enumerate(item.citations, start=1)
            )
    return log
