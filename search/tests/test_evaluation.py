"""The quality bar of the issue, measured on the project's own judged set (and the shared dev set)."""

import pytest

from conftest import shared_path
from search.evaluation import DEFAULT_QUERIES, evaluate, judged_queries_read, ndcg_at_3

pytestmark = pytest.mark.django_db


def test_it_scores_ndcg_with_graded_relevance():
    assert ndcg_at_3(["A", "B", "C"], {"A": 2, "B": 1}, False) == pytest.approx(1.0)
    assert ndcg_at_3(["C", "B", "A"], {"A": 2, "B": 1}, False) < 0.7
    assert ndcg_at_3([], {}, True) == 1.0 and ndcg_at_3(["A"], {}, True) == 0.0


def test_it_ranks_the_judged_set_better_than_the_vector_baseline_without_forbidden_items():
    queries = judged_queries_read(DEFAULT_QUERIES)
    assert len(queries) >= 40
    rows = evaluate(queries, ["vector", "two-stage"])["modes"]
    assert rows["two-stage"]["ndcg@3"] > rows["vector"]["ndcg@3"]
    assert rows["two-stage"]["forbidden_in_top3"] == 0
    assert rows["two-stage"]["citation_rate"] >= 0.8
    assert rows["two-stage"]["url_display_rate"] == 1.0


@pytest.mark.shared
def test_it_meets_the_bar_on_the_shared_development_set():
    rows = evaluate(judged_queries_read(shared_path("eval", "dev_queries.jsonl")), ["vector", "two-stage"])["modes"]
    assert rows["two-stage"]["ndcg@3"] > rows["vector"]["ndcg@3"]
    assert rows["two-stage"]["hit@3"] >= 0.9
    assert rows["two-stage"]["forbidden_in_top3"] == 0
