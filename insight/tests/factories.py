"""Stored searches, recommendations and votes at chosen moments, written as the search app stores them."""

from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from catalog.models import Product
from search.models import FeedbackVote, Recommendation, SearchLog
from search.pipeline.run import FEW_RESULTS_NOTE, NO_RESULTS_MESSAGE


def local_noon(days_ago: int) -> datetime:
    """Midday (local time) a number of days ago: far from any day boundary."""
    return timezone.make_aware(datetime.combine(timezone.localdate() - timedelta(days=days_ago), time(12)))


def local_day(days_ago: int) -> date:
    return timezone.localdate() - timedelta(days=days_ago)


def stored_search(query: str = "Werknemer met burn-out", *, at: datetime, results: str = "enough", total_ms: object = 40.0) -> SearchLog:
    """A SearchLog as search_log_record writes it; `results` is "enough", "few" or "none"."""
    log = SearchLog.objects.create(
        query=query,
        top_k=5,
        message=NO_RESULTS_MESSAGE if results == "none" else "",
        note=FEW_RESULTS_NOTE if results == "few" else "",
        timings_ms={"stage1": 5.0} if total_ms is None else {"stage1": 5.0, "total": total_ms},
    )
    SearchLog.objects.filter(pk=log.pk).update(created_at=at)  # created_at is auto_now_add
    log.created_at = at
    return log


def recommendation(search: SearchLog, product: Product, *, rank: int = 1) -> Recommendation:
    return Recommendation.objects.create(
        search=search, product=product, product_name=product.name, rank=rank, relevance_score=0.8, impact_score=0.8,
        fit_score=0.7, guidelines_score=0.6, feasibility_score=0.5, similarity=0.3, reasoning="Past bij de situatie.",
        url_shown=product.url or "https://portal.evi360.nl/products", url_status=product.url_status,
    )


def vote(recommendation: Recommendation, value: int, *, at: datetime, username: str) -> FeedbackVote:
    """A vote last changed at `at`, by a user of that name (one vote per user per recommendation)."""
    user, _ = get_user_model().objects.get_or_create(username=username)
    cast = FeedbackVote.objects.create(user=user, recommendation=recommendation, value=value)
    FeedbackVote.objects.filter(pk=cast.pk).update(created_at=at, updated_at=at)  # both are automatic
    return cast
