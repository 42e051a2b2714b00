"""Searches and guideline questions are limited per user on the shared Redis, in Dutch with 429 and
Retry-After, on the pages and the API alike; without Redis the limits are off, not the search."""

import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SITUATION = "Werknemer met rugklachten na tillen, drie weken thuis"


@pytest.fixture
def tight_limits(settings):
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    # Per hour, not per minute: django-ratelimit counts in fixed windows, and a test that crossed a
    # minute boundary between its searches (a slow machine) started a fresh count and saw no 429.
    settings.RATE_LIMITS = {"search": "2/h", "question": "1/h"}


def test_it_limits_searches_per_user_in_dutch_with_retry_after(tight_limits, owner, colleague, client):
    client.force_login(owner)
    for _ in range(2):
        assert client.post(reverse("search:new"), {"situatie": SITUATION}, **HTMX).status_code == 200
    limited = client.post(reverse("search:new"), {"situatie": SITUATION}, **HTMX)
    assert limited.status_code == 429 and 1 <= int(limited["Retry-After"]) <= 3600
    assert "Probeer het over" in limited.content.decode()
    client.force_login(colleague)  # per user: a colleague still searches
    assert client.post(reverse("search:new"), {"situatie": SITUATION}, **HTMX).status_code == 200


def test_it_limits_the_api_and_guideline_questions(tight_limits, owner, client):
    client.force_login(owner)
    body = json.dumps({"question": "Wat moet er in het plan van aanpak staan?"})
    assert client.post("/api/guidelines/answer", body, content_type="application/json").status_code == 200
    limited = client.post("/api/guidelines/answer", body, content_type="application/json")
    assert limited.status_code == 429 and limited["Retry-After"] and "Probeer het over" in limited.json()["detail"]
    # The page shares the question limit with the API.
    page = client.post(reverse("search:guidelines"), {"q": "Wat moet er in het plan van aanpak staan?"}, **HTMX)
    assert page.status_code == 429 and "Probeer het over" in page.content.decode()


def test_it_searches_without_limits_when_redis_is_down(tight_limits, settings, owner, client):
    settings.CACHES = {**settings.CACHES, "ratelimit": {**settings.CACHES["ratelimit"], "LOCATION": "redis://127.0.0.1:1/0"}}
    client.force_login(owner)
    for _ in range(3):
        assert client.post(reverse("search:new"), {"situatie": SITUATION}, **HTMX).status_code == 200
