"""What the insight page shows: the period, its figures and charts, built from the selectors."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe

from insight import selectors
from insight.charts import Series, bar_chart, line_chart

PERIOD_CHOICES = (7, 30, 90)
DEFAULT_PERIOD = 30
SMALL_CHART_WIDTH = 480  # two per row on a wide screen, with text as large as in the full-width charts
PRIMARY, AMBER, RED, GREEN, BROWN = "#0b5c7c", "#d9a400", "#a8201a", "#1d6638", "#8a4f00"


@dataclass(frozen=True)
class Period:
    """The last `days` local days, today included."""

    days: int
    last_day: date

    @property
    def first_day(self) -> date:
        return self.last_day - timedelta(days=self.days - 1)

    @property
    def since(self) -> datetime:
        return timezone.make_aware(datetime.combine(self.first_day, time.min))

    def each_day(self) -> list[date]:
        return [self.first_day + timedelta(days=offset) for offset in range(self.days)]


@dataclass(frozen=True)
class ProductPanel:
    votes: selectors.ProductVotes
    chart: SafeString


@dataclass(frozen=True)
class Overview:
    period: Period
    searches: int
    no_results: int
    few_results: int
    search_time: selectors.SearchTime
    searches_chart: SafeString
    timings_chart: SafeString
    no_result_situations: list[selectors.Situation]
    few_result_situations: list[selectors.Situation]
    products: list[ProductPanel]
    links: selectors.LinkOverview


def overview_build(*, days: int) -> Overview:
    """Everything on the page for the last `days` days."""
    period = Period(days=days, last_day=timezone.localdate())
    per_day = {row.day: row for row in selectors.searches_per_day(since=period.since)}
    return Overview(
        period=period,
        searches=sum(row.total for row in per_day.values()),
        no_results=sum(row.no_results for row in per_day.values()),
        few_results=sum(row.few_results for row in per_day.values()),
        search_time=selectors.search_time_in_period(since=period.since),
        searches_chart=_searches_chart(period, per_day),
        timings_chart=_timings_chart(period),
        no_result_situations=selectors.no_result_situations(since=period.since),
        few_result_situations=selectors.few_result_situations(since=period.since),
        products=[ProductPanel(votes=votes, chart=_votes_chart(period, votes)) for votes in selectors.votes_per_product(since=period.since)],
        links=selectors.link_overview(limit=25),
    )


def _searches_chart(period: Period, per_day: dict[date, selectors.DaySearches]) -> SafeString:
    days = period.each_day()
    rows = [per_day.get(day) for day in days]
    answered = [row.total - row.no_results - row.few_results if row else 0 for row in rows]
    series = [
        Series("Met advies", answered, PRIMARY),
        Series("Weinig resultaten", [row.few_results if row else 0 for row in rows], AMBER),
        Series("Geen resultaten", [row.no_results if row else 0 for row in rows], RED),
    ]
    return _safe(bar_chart(title="Zoekvragen per dag", y_title="zoekvragen", series=series, **_labels(days),
                           empty_text="Nog geen zoekvragen in deze periode"))


def _timings_chart(period: Period) -> SafeString:
    days = period.each_day()
    per_day = {row.day: row for row in selectors.search_time_per_day(since=period.since)}
    series = [
        Series("Mediaan", [per_day[day].median_ms if day in per_day else None for day in days], PRIMARY),
        Series("95e percentiel", [per_day[day].p95_ms if day in per_day else None for day in days], BROWN),
    ]
    return _safe(line_chart(title="Zoektijd per dag", y_title="ms", unit="ms", series=series, **_labels(days),
                            empty_text="Nog geen zoekvragen in deze periode"))


def _votes_chart(period: Period, votes: selectors.ProductVotes) -> SafeString:
    days = period.each_day()
    series = [
        Series("Bruikbaar", [votes.per_day.get(day, (0, 0))[0] for day in days], GREEN),
        Series("Niet bruikbaar", [votes.per_day.get(day, (0, 0))[1] for day in days], RED),
    ]
    return _safe(bar_chart(title=f"{votes.name}: stemmen per dag", y_title="stemmen", series=series, width=SMALL_CHART_WIDTH, **_labels(days)))


def _labels(days: list[date]) -> dict:
    return {"labels": [date_format(day, "j b") for day in days], "long_labels": [date_format(day, "l j F") for day in days]}


def _safe(svg: str) -> SafeString:
    # insight.charts escapes every text it writes.
    return mark_safe(svg)
