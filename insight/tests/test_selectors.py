"""The insight figures, aggregated in PostgreSQL over real stored searches, votes and products."""

import pytest
from django.utils import timezone

from catalog.models import Product, UrlStatus
from insight import selectors
from insight.expressions import Percentile
from insight.tests.factories import (
    local_day,
    local_noon,
    recommendation,
    stored_search,
    vote,
)
from search.models import FeedbackVote

pytestmark = pytest.mark.django_db

UP, DOWN = FeedbackVote.Value.UP, FeedbackVote.Value.DOWN


def _since(days_ago: int):
    return local_noon(days_ago).replace(hour=0)


def test_it_counts_searches_per_local_day_with_those_that_found_nothing_or_little():
    for results in ("enough", "enough", "few", "none"):
        stored_search(at=local_noon(2), results=results)
    stored_search(at=local_noon(0), results="none")

    rows = selectors.searches_per_day(since=_since(6))

    assert rows == [
        selectors.DaySearches(day=local_day(2), total=4, no_results=1, few_results=1),
        selectors.DaySearches(day=local_day(0), total=1, no_results=1, few_results=0),
    ]


def test_it_counts_a_search_just_after_local_midnight_on_that_local_day():
    just_after_midnight = local_noon(1).replace(hour=0, minute=30)  # 22:30 or 23:30 UTC the day before
    stored_search(at=just_after_midnight)

    assert [row.day for row in selectors.searches_per_day(since=_since(6))] == [local_day(1)]


def test_it_leaves_out_searches_before_the_period():
    stored_search(at=local_noon(8), results="none")
    stored_search(at=local_noon(3), results="none")

    assert sum(row.total for row in selectors.searches_per_day(since=_since(6))) == 1
    assert [s.count for s in selectors.no_result_situations(since=_since(6))] == [1]


def test_it_groups_situations_that_found_nothing_by_their_normalised_text():
    stored_search("Appeltaart  recept", at=local_noon(5), results="none")
    stored_search("  appeltaart\nRECEPT ", at=local_noon(1), results="none")
    stored_search("appeltaart recept", at=local_noon(3), results="none")
    stored_search("Zeilen op het IJsselmeer", at=local_noon(2), results="none")
    stored_search("appeltaart recept", at=local_noon(2), results="enough")  # found something: not counted

    situations = selectors.no_result_situations(since=_since(10))

    assert [(s.text, s.count) for s in situations] == [("appeltaart recept", 3), ("zeilen op het ijsselmeer", 1)]
    assert situations[0].last_seen == local_noon(1)


def test_it_keeps_the_ten_most_frequent_situations_most_frequent_first():
    for n in range(12):
        for _ in range(n + 1):
            stored_search(f"situatie {n}", at=local_noon(1), results="none")

    situations = selectors.no_result_situations(since=_since(6))

    assert [s.text for s in situations] == [f"situatie {n}" for n in range(11, 1, -1)]
    assert situations[0].count == 12


def test_it_lists_situations_with_few_results_apart_from_those_with_none():
    stored_search("Medewerker gokt en heeft schulden", at=local_noon(1), results="few")
    stored_search("Medewerker gokt en heeft schulden", at=local_noon(2), results="few")
    stored_search("xq zzv plok", at=local_noon(1), results="none")

    few = selectors.few_result_situations(since=_since(6))

    assert [(s.text, s.count) for s in few] == [("medewerker gokt en heeft schulden", 2)]
    assert [s.text for s in selectors.no_result_situations(since=_since(6))] == ["xq zzv plok"]


def test_it_computes_median_and_95th_percentile_of_the_search_time_per_day():
    for total_ms in (10, 20, 30, 40, 100):
        stored_search(at=local_noon(1), total_ms=total_ms)
    stored_search(at=local_noon(0), total_ms=7.5)

    rows = selectors.search_time_per_day(since=_since(6))

    # percentile_cont interpolates: position 0.95 × (5 − 1) = 3.8 lies between 40 and 100.
    assert rows == [
        selectors.DayTiming(day=local_day(1), median_ms=30.0, p95_ms=pytest.approx(88.0), searches=5),
        selectors.DayTiming(day=local_day(0), median_ms=7.5, p95_ms=7.5, searches=1),
    ]


def test_it_leaves_out_searches_without_a_numeric_total_time():
    stored_search(at=local_noon(1), total_ms=20)
    stored_search(at=local_noon(1), total_ms=None)
    stored_search(at=local_noon(1), total_ms="snel")

    rows = selectors.search_time_per_day(since=_since(6))

    assert [(row.median_ms, row.searches) for row in rows] == [(20.0, 1)]


def test_it_computes_the_search_time_over_the_whole_period():
    for days_ago, total_ms in ((1, 10), (2, 20), (3, 30), (20, 5000)):
        stored_search(at=local_noon(days_ago), total_ms=total_ms)

    time = selectors.search_time_in_period(since=_since(6))

    assert (time.median_ms, time.p95_ms, time.searches) == (20.0, pytest.approx(29.0), 3)
    assert selectors.search_time_in_period(since=timezone.now()) == selectors.SearchTime(None, None, 0)


def test_it_refuses_a_percentile_outside_zero_and_one():
    with pytest.raises(ValueError):
        Percentile("id", fraction=1.5)


def test_it_counts_votes_per_product_per_day_by_their_latest_change():
    liked, disliked = Product.objects.order_by("name")[:2]
    search = stored_search(at=local_noon(3))
    liked_advice, disliked_advice = recommendation(search, liked, rank=1), recommendation(search, disliked, rank=2)
    vote(liked_advice, UP, at=local_noon(3), username="a")
    vote(liked_advice, UP, at=local_noon(3), username="b")
    vote(liked_advice, DOWN, at=local_noon(1), username="c")
    vote(disliked_advice, DOWN, at=local_noon(2), username="a")
    vote(disliked_advice, UP, at=local_noon(40), username="b")  # before the period

    products = selectors.votes_per_product(since=_since(6))

    assert [(p.name, p.up, p.down) for p in products] == [(liked.name, 2, 1), (disliked.name, 0, 1)]
    assert products[0].product_id == liked.id
    assert products[0].per_day == {local_day(3): (2, 0), local_day(1): (0, 1)}
    assert products[1].per_day == {local_day(2): (0, 1)}


def test_it_keeps_the_products_with_the_most_votes():
    products = list(Product.objects.order_by("name")[:3])
    search = stored_search(at=local_noon(1))
    for rank, (product, voters) in enumerate(zip(products, (1, 3, 2), strict=True), start=1):
        advice = recommendation(search, product, rank=rank)
        for voter in range(voters):
            vote(advice, UP, at=local_noon(1), username=f"voter-{voter}")

    top = selectors.votes_per_product(since=_since(6), limit=2)

    assert [p.name for p in top] == [products[1].name, products[2].name]


def test_it_lists_active_products_whose_link_is_broken_unreachable_or_unchecked_worst_first():
    Product.objects.update(url_status=UrlStatus.OK)
    first, second, third, fourth, inactive = Product.objects.order_by("name")[:5]
    Product.objects.filter(pk=first.pk).update(url_status=UrlStatus.UNCHECKED)
    Product.objects.filter(pk=second.pk).update(url_status=UrlStatus.UNREACHABLE, url_error="time-out")
    Product.objects.filter(pk=third.pk).update(url_status=UrlStatus.BROKEN, url_http_status=404)
    Product.objects.filter(pk=inactive.pk).update(url_status=UrlStatus.BROKEN, is_active=False)

    links = selectors.link_overview()

    assert [p.name for p in links.attention] == [third.name, second.name, first.name]
    assert links.attention[0].url_http_status == 404
    active = Product.objects.filter(is_active=True).count()
    assert links.counts == {"broken": 1, "unreachable": 1, "unchecked": 1, "ok": active - 3}
    assert links.attention_total == 3


def test_it_shows_at_most_the_limit_of_links_but_counts_them_all():
    Product.objects.update(url_status=UrlStatus.UNCHECKED, is_active=True)

    links = selectors.link_overview(limit=5)

    assert len(links.attention) == 5
    assert links.attention_total == Product.objects.count()
