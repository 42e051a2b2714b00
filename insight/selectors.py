"""Reads for the insight page: search volume, what found nothing, search time, votes and links.

Every figure is aggregated in PostgreSQL; days are local days (TIME_ZONE), as the curators live them.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Case, Count, IntegerField, Max, Q, QuerySet, Value, When
from django.db.models.functions import TruncDate

from catalog.models import Product, UrlStatus
from insight.expressions import Percentile, json_number, json_type, normalised_text
from search.models import FeedbackVote, SearchLog
from search.pipeline.run import FEW_RESULTS_NOTE

NO_RESULTS = ~Q(message="")  # the pipeline sets a message only when it recommends nothing
FEW_RESULTS = Q(note=FEW_RESULTS_NOTE)
UP, DOWN = FeedbackVote.Value.UP, FeedbackVote.Value.DOWN
NEEDS_ATTENTION = (UrlStatus.BROKEN, UrlStatus.UNREACHABLE, UrlStatus.UNCHECKED)  # worst first


@dataclass(frozen=True)
class DaySearches:
    day: date
    total: int
    no_results: int
    few_results: int


@dataclass(frozen=True)
class Situation:
    """Searches with the same text once lowercased and with whitespace collapsed."""

    text: str
    count: int
    last_seen: datetime


@dataclass(frozen=True)
class SearchTime:
    median_ms: float | None
    p95_ms: float | None
    searches: int


@dataclass(frozen=True)
class DayTiming:
    day: date
    median_ms: float
    p95_ms: float
    searches: int


@dataclass(frozen=True)
class ProductVotes:
    """A product's votes in the period; `per_day` maps a day to its (👍, 👎)."""

    product_id: int | None
    name: str
    up: int
    down: int
    per_day: dict[date, tuple[int, int]]


@dataclass(frozen=True)
class LinkOverview:
    """Active products per link status, and the first of those whose link is not known to work."""

    counts: dict[str, int]
    attention: list[Product]

    @property
    def attention_total(self) -> int:
        return sum(self.counts.get(status, 0) for status in NEEDS_ATTENTION)


def searches_per_day(*, since: datetime) -> list[DaySearches]:
    """Searches per day since `since`, with how many found nothing and how many found few; days without searches are absent."""
    rows = (
        SearchLog.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(total=Count("id"), no_results=Count("id", filter=NO_RESULTS), few_results=Count("id", filter=FEW_RESULTS))
        .order_by("day")
    )
    return [DaySearches(**row) for row in rows]


def no_result_situations(*, since: datetime, limit: int = 10) -> list[Situation]:
    """The most frequent situations that got no recommendation at all: what the catalog lacks."""
    return _top_situations(SearchLog.objects.filter(NO_RESULTS, created_at__gte=since), limit)


def few_result_situations(*, since: datetime, limit: int = 10) -> list[Situation]:
    """The most frequent situations that got fewer than three relevant recommendations."""
    return _top_situations(SearchLog.objects.filter(FEW_RESULTS, created_at__gte=since), limit)


def search_time_per_day(*, since: datetime) -> list[DayTiming]:
    """Median and 95th percentile of the total search time per day (searches without a recorded total are left out)."""
    rows = (
        _timed_searches(since)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(**_time_aggregates())
        .order_by("day")
    )
    return [DayTiming(**row) for row in rows]


def search_time_in_period(*, since: datetime) -> SearchTime:
    """Median and 95th percentile of the total search time over the whole period."""
    return SearchTime(**_timed_searches(since).aggregate(**_time_aggregates()))


def votes_per_product(*, since: datetime, limit: int = 8) -> list[ProductVotes]:
    """The `limit` products with the most votes whose latest change lies in the period, with their votes per day.

    A vote counts on the day it was last changed (`updated_at`): its value is the specialist's opinion from then on.
    """
    votes = FeedbackVote.objects.filter(updated_at__gte=since)
    product = ("recommendation__product_id", "recommendation__product_name")
    tallies = {"up": Count("id", filter=Q(value=UP)), "down": Count("id", filter=Q(value=DOWN))}
    top = list(
        votes.values(*product).annotate(**tallies, total=Count("id")).order_by("-total", "-down", "recommendation__product_name")[:limit]
    )
    daily: dict[tuple, dict[date, tuple[int, int]]] = {}
    rows = (
        votes.filter(recommendation__product_name__in=[row["recommendation__product_name"] for row in top])
        .annotate(day=TruncDate("updated_at"))
        .values(*product, "day")
        .annotate(**tallies)
    )
    for row in rows:
        key = (row["recommendation__product_id"], row["recommendation__product_name"])
        daily.setdefault(key, {})[row["day"]] = (row["up"], row["down"])
    return [
        ProductVotes(
            product_id=row["recommendation__product_id"],
            name=row["recommendation__product_name"],
            up=row["up"],
            down=row["down"],
            per_day=daily.get((row["recommendation__product_id"], row["recommendation__product_name"]), {}),
        )
        for row in top
    ]


def link_overview(*, limit: int = 50) -> LinkOverview:
    """Active products per link status, and up to `limit` whose link is broken, unreachable or unchecked (worst first)."""
    products = Product.objects.filter(is_active=True)
    counts = dict(products.order_by().values_list("url_status").annotate(count=Count("id")))
    worst_first = Case(
        *(When(url_status=status, then=Value(rank)) for rank, status in enumerate(NEEDS_ATTENTION)), output_field=IntegerField()
    )
    attention = _link_fields(products.filter(url_status__in=NEEDS_ATTENTION)).order_by(worst_first, "name")[:limit]
    return LinkOverview(counts=counts, attention=list(attention))


def _top_situations(searches: QuerySet[SearchLog], limit: int) -> list[Situation]:
    rows = (
        searches.annotate(text=normalised_text("query"))
        .values("text")
        .annotate(count=Count("id"), last_seen=Max("created_at"))
        .order_by("-count", "-last_seen", "text")[:limit]
    )
    return [Situation(**row) for row in rows]


def _timed_searches(since: datetime) -> QuerySet[SearchLog]:
    # A total that is not a JSON number (absent in old rows) would break the cast to float.
    return SearchLog.objects.filter(created_at__gte=since).alias(total_type=json_type("timings_ms", "total")).filter(total_type="number")


def _time_aggregates() -> dict:
    total_ms = json_number("timings_ms", "total")
    return {
        "median_ms": Percentile(total_ms, fraction=0.5),
        "p95_ms": Percentile(total_ms, fraction=0.95),
        "searches": Count("id"),
    }


def _link_fields(products: QuerySet[Product]) -> QuerySet[Product]:
    # The vectors and search text are large and not shown.
    return products.only("id", "name", "url", "url_status", "url_checked_at", "url_http_status", "url_failure_count", "url_error")
