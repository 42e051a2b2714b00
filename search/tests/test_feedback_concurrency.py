"""Votes under concurrency: many simultaneous clicks by one specialist leave exactly one vote."""

import threading

import pytest
from django.db import connection

from catalog.models import Product
from search.models import FeedbackVote, Recommendation, SearchLog
from search.services import feedback_vote_cast


@pytest.mark.django_db(transaction=True)
def test_it_keeps_one_vote_per_user_when_votes_race(django_user_model):
    user = django_user_model.objects.create_user(username="snelle-klikker")
    product = Product.objects.create(name="Raceproduct", slug="raceproduct", description="x", category="Preventie", phase="preventie", delivery="online")
    search = SearchLog.objects.create(user=user, query="race", top_k=3)
    recommendation = Recommendation.objects.create(
        search=search, product=product, product_name=product.name, rank=1, relevance_score=0.5, impact_score=0.5,
        fit_score=0.5, guidelines_score=0.5, feasibility_score=0.5, similarity=0.5, reasoning="r", url_shown="https://example.org", url_status="ok",
    )
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def vote(value: int) -> None:
        try:
            start.wait()
            feedback_vote_cast(user=user, recommendation_id=recommendation.id, value=value, comment=f"stem {value}")
        except BaseException as error:  # collected and asserted below; a thread cannot fail the test itself
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=vote, args=(1 if n % 2 else -1,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    votes = FeedbackVote.objects.filter(user=user, recommendation=recommendation)
    assert votes.count() == 1
    assert votes.get().value in (1, -1) and votes.get().comment == f"stem {votes.get().value}"
