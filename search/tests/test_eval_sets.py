import json
from pathlib import Path

import pytest

from search.evaluation import judged_queries_read

EVAL_DIR = Path(__file__).resolve().parents[1] / "eval"
CATALOG = Path(__file__).resolve().parents[2] / "demo" / "data" / "products.json"
SITUATION_SETS = sorted(p for p in EVAL_DIR.glob("*.jsonl") if '"rel"' in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SITUATION_SETS, ids=lambda p: p.name)
def test_it_judges_only_products_the_demo_catalog_has(path):
    """A judged name the catalog lacks can never be found, which silently lowers every figure."""
    names = {product["name"] for product in json.loads(CATALOG.read_text(encoding="utf-8"))}
    queries = judged_queries_read(path)
    assert queries
    unknown = {name for q in queries for name in [*q.rel, *q.forbid] if name not in names}
    assert not unknown
