"""Reads of the search app: a specialist's own history, stored advice and cited passages."""

from django.db.models import Prefetch, QuerySet

from guidelines.models import GuidelineChunk
from search.models import Citation, FeedbackVote, Recommendation, SearchLog


def searches_of_user(*, user) -> QuerySet[SearchLog]:
    """The user's own searches, newest first (never anyone else's)."""
    return SearchLog.objects.filter(user=user).order_by("-created_at")


def search_of_user(*, user, search_id: int) -> SearchLog:
    """One of the user's own searches with its stored recommendations, citations and the user's votes.

    Raises SearchLog.DoesNotExist for a search that is not theirs, so views answer 404.
    """
    recommendations = Recommendation.objects.select_related("product").prefetch_related(
        Prefetch("citations", queryset=Citation.objects.select_related("chunk__document").order_by("position")),
        Prefetch("votes", queryset=FeedbackVote.objects.filter(user=user), to_attr="my_votes"),
    )
    return SearchLog.objects.prefetch_related(Prefetch("recommendations", queryset=recommendations)).get(
        id=search_id, user=user
    )


def chunk_with_document(*, chunk_id: int) -> GuidelineChunk:
    return GuidelineChunk.objects.select_related("document").get(id=chunk_id)
