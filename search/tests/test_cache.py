"""Identical searches from the cache: Redis first, the database when Redis is away; any change to what a
search depends on invalidates them. Real Redis, real PostgreSQL triggers."""

import contextlib

import pytest
from django.core.cache import caches
from django.db import connection

from catalog.models import Product
from search import cache as search_cache
from search.models import FeedbackVote, RankingParameterSet, SearchLog
from search.pipeline.request import SearchRequest
from search.services import search_perform

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"


@pytest.fixture
def cached(settings, monkeypatch):
    settings.SEARCH_CACHE_SECONDS = 300
    monkeypatch.setattr(search_cache, "_redis_down_until", 0.0)
    caches["search"].clear()
    caches["search_fallback"].clear()
    yield
    with contextlib.suppress(Exception):  # a test may have pointed "search" at a Redis that is not there
        caches["search"].clear()


def _names(outcome) -> list[str]:
    return [item.product.name for item in outcome.recommendations]


@pytest.mark.django_db(transaction=True)
def test_it_answers_the_same_situation_from_the_cache_and_says_so(demo_data, cached):
    first = search_perform(request=SearchRequest(query=SITUATION))
    again = search_perform(request=SearchRequest(query="  werknemer met BURN-OUT klachten,   6 maanden verzuim, management functie "))
    assert "cache" not in first.timings_ms and "cache" in again.timings_ms
    assert again.timings_ms["cached_total"] == first.timings_ms["total"]
    assert _names(again) == _names(first)
    assert SearchLog.objects.count() == 2  # a cached answer is still a search of its own in the log
    assert again.query.startswith("  werknemer") is False and again.query.startswith("werknemer met BURN-OUT")


@pytest.mark.django_db(transaction=True)
def test_it_runs_the_search_again_for_other_context_fields(demo_data, cached):
    search_perform(request=SearchRequest(query=SITUATION))
    other = search_perform(request=SearchRequest(query=SITUATION, duration="2 weken"))
    assert "cache" not in other.timings_ms


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("change", ["product saved", "bulk update", "vote", "ranking version"])
def test_it_invalidates_every_cached_search_when_what_it_depends_on_changes(demo_data, cached, django_user_model, change):
    first = search_perform(request=SearchRequest(query=SITUATION))
    product = first.recommendations[0].product
    if change == "product saved":
        product.description += " Aangepast."
        product.save()
    elif change == "bulk update":
        Product.objects.filter(id=product.id).update(url_status="broken")
    elif change == "vote":
        user = django_user_model.objects.create_user(username="stemmer", password="stemmer-pass-1")
        log = SearchLog.objects.get(id=first.search_id)
        FeedbackVote.objects.create(user=user, recommendation=log.recommendations.first(), value=1)
    else:
        RankingParameterSet.objects.create(
            values={}, judged_situations=1, vote_pairs=0, vote_searches=0, held_out_ndcg=0.5, baseline_ndcg=0.5, trials=1, folds=2,
        )
    assert "cache" not in search_perform(request=SearchRequest(query=SITUATION)).timings_ms



@pytest.mark.django_db(transaction=True)
def test_it_never_answers_from_a_cache_written_by_other_ranking_code(demo_data, cached, monkeypatch):
    """A deploy that changes the pipeline or a word list: processes of both versions may share one Redis."""
    search_perform(request=SearchRequest(query=SITUATION))
    assert "cache" in search_perform(request=SearchRequest(query=SITUATION)).timings_ms
    monkeypatch.setattr(search_cache, "ranking_code_fingerprint", lambda: "other-code")
    assert "cache" not in search_perform(request=SearchRequest(query=SITUATION)).timings_ms

@pytest.mark.django_db(transaction=True)
def test_it_shows_the_link_status_of_now_on_a_cache_hit(demo_data, cached, monkeypatch):
    first = search_perform(request=SearchRequest(query=SITUATION))
    product_id = first.recommendations[0].product.id
    generation = search_cache.cache_generation()
    Product.objects.filter(id=product_id).update(url_status="broken")
    monkeypatch.setattr(search_cache, "cache_generation", lambda: generation)  # as if the change had not counted
    again = search_perform(request=SearchRequest(query=SITUATION))
    assert "cache" in again.timings_ms
    assert again.recommendations[0].product.url_status == "broken"


@pytest.mark.django_db(transaction=True)
def test_it_uses_the_database_cache_while_redis_is_away(demo_data, cached, settings):
    settings.CACHES = {**settings.CACHES, "search": {**settings.CACHES["search"], "LOCATION": "redis://127.0.0.1:1/0"}}
    caches._settings = None  # rebuild the cache handlers from the new settings
    for alias in ("search", "search_fallback"):
        if hasattr(caches._connections, alias):
            delattr(caches._connections, alias)
    try:
        first = search_perform(request=SearchRequest(query=SITUATION))
        again = search_perform(request=SearchRequest(query=SITUATION))
        assert "cache" not in first.timings_ms and "cache" in again.timings_ms
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM search_cache")
            assert cursor.fetchone()[0] >= 1
    finally:
        if hasattr(caches._connections, "search"):
            delattr(caches._connections, "search")


def test_it_is_off_in_the_other_tests(settings):
    assert settings.SEARCH_CACHE_SECONDS == 0
