"""Reads of the search app: a specialist's own history, stored advice and cited passages, and the
votes as preferences to learn from."""

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet, Sum

from guidelines.models import GuidelineChunk
from search.models import Citation, FeedbackVote, Recommendation, SearchLog, SearchMode
from search.pipeline.request import REPLAYABLE_FIELDS


def searches_of_user(*, user) -> QuerySet[SearchLog]:
    """The user's own searches, newest first (never anyone else's)."""
    return SearchLog.objects.filter(user=user).order_by("-created_at")


def search_of_user(*, user, search_id: int) -> SearchLog:
    """One of the user's own searches with its stored recommendations, citations and the user's votes.

    Raises SearchLog.DoesNotExist for a search that is not theirs, so views answer 404.
    """
    recommendations = Recommendation.objects.select_related("product").defer("product__embedding").prefetch_related(
        Prefetch("citations", queryset=Citation.objects.select_related("chunk__document").order_by("position")),
        Prefetch("votes", queryset=FeedbackVote.objects.filter(user=user), to_attr="my_votes"),
    )
    return SearchLog.objects.prefetch_related(Prefetch("recommendations", queryset=recommendations)).get(
        id=search_id, user=user
    )


def chunk_with_document(*, chunk_id: int) -> GuidelineChunk:
    return GuidelineChunk.objects.select_related("document").get(id=chunk_id)


@dataclass(frozen=True)
class VotedSearch:
    """A two-stage search the specialists voted on, as pairwise preferences: in each pair the first
    product was voted up and the second down (net over all voters) in this same search."""

    search_id: int
    query: str
    request_fields: dict
    pairs: tuple[tuple[int, int], ...]


def voted_searches() -> list[VotedSearch]:
    """Every two-stage search with at least one product voted up and one voted down."""
    net = (
        FeedbackVote.objects.filter(recommendation__search__mode=SearchMode.TWO_STAGE, recommendation__product__isnull=False)
        .values("recommendation__search_id", "recommendation__product_id")
        .annotate(net=Sum("value"))
        .order_by("recommendation__search_id", "recommendation__product_id")
    )
    liked: dict[int, list[int]] = {}
    disliked: dict[int, list[int]] = {}
    for row in net:
        if row["net"]:
            side = liked if row["net"] > 0 else disliked
            side.setdefault(row["recommendation__search_id"], []).append(row["recommendation__product_id"])
    searches = SearchLog.objects.in_bulk(sorted(set(liked) & set(disliked)))
    return [
        VotedSearch(
            search_id=search_id,
            query=searches[search_id].query,
            request_fields={k: v for k, v in searches[search_id].request_fields.items() if k in REPLAYABLE_FIELDS},
            pairs=tuple((up, down) for up in liked[search_id] for down in disliked[search_id]),
        )
        for search_id in sorted(searches)
    ]
