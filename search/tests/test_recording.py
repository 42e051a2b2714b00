"""A search is recorded in one statement, completely or not at all."""

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from search.models import Citation, Recommendation, SearchLog
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.recording import search_rows_insert
from search.services import search_log_record

pytestmark = pytest.mark.django_db

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"


def test_it_records_the_search_its_recommendations_and_their_citations_in_one_statement(django_user_model):
    user = django_user_model.objects.create_user("recorder", password="x-secret-123")
    outcome = search_run(SearchRequest(query=SITUATION))
    assert outcome.recommendations and outcome.workplace_suggestions

    with CaptureQueriesContext(connection) as queries:
        search_id = search_log_record(outcome=outcome, top_k=3, user=user, request_fields={"sector": "zorg"})
    assert len(queries.captured_queries) == 1

    log = SearchLog.objects.get(id=search_id)
    assert (log.user, log.query, log.top_k, log.request_fields) == (user, outcome.query, 3, {"sector": "zorg"})
    assert log.context == outcome.context.as_dict() and log.created_at is not None
    stored = list(log.recommendations.order_by("id"))
    shown = [(Recommendation.Section.ADVICE, item) for item in outcome.recommendations]
    shown += [(Recommendation.Section.WORKPLACE, item) for item in outcome.workplace_suggestions]
    # In the order shown, each with its own citations in their order.
    assert [(r.section, r.product_id, r.relevance_score) for r in stored] == [(s, i.product.id, i.relevance) for s, i in shown]
    for recommendation, (_, item) in zip(stored, shown, strict=True):
        citations = list(recommendation.citations.order_by("position"))
        assert [(c.chunk_id, c.score, c.retrieved_at) for c in citations] == [(c.chunk_id, c.score, c.retrieved_at) for c in item.citations]


@pytest.mark.django_db(transaction=True)  # the foreign keys are checked at commit: commit for real
def test_it_writes_nothing_when_one_citation_cannot_be_stored(demo_data):
    outcome = search_run(SearchRequest(query=SITUATION))
    cited = next(item for item in outcome.recommendations if item.citations)
    cited.citations[0].chunk_id = 10**9  # no such passage: the foreign key refuses it
    before = (SearchLog.objects.count(), Recommendation.objects.count(), Citation.objects.count())
    with pytest.raises(IntegrityError):
        search_log_record(outcome=outcome, top_k=3)
    assert (SearchLog.objects.count(), Recommendation.objects.count(), Citation.objects.count()) == before


def test_it_refuses_a_row_that_does_not_name_every_column():
    outcome = search_run(SearchRequest(query=SITUATION))
    search_id = search_log_record(outcome=outcome, top_k=3)
    row = {field: value for field, value in SearchLog.objects.filter(id=search_id).values()[0].items() if field != "id"}
    with pytest.raises(ValueError, match="missing \\['note'\\]"):
        search_rows_insert(log={k: v for k, v in row.items() if k != "note"}, recommendations=[], citations=[])
    with pytest.raises(ValueError, match="unknown \\['colour'\\]"):
        search_rows_insert(log={**row, "colour": "blauw"}, recommendations=[], citations=[])
