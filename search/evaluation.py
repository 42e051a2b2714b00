"""Ranking and answer quality metrics over judged situations (the format of shared/eval/dev_queries.jsonl)."""

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from django.conf import settings

from embeddings.encoder import query_cache_clear
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

DEFAULT_QUERIES = settings.BASE_DIR / "search" / "eval" / "judged_situations.jsonl"
# Which guideline documents are on each product's subject (judged by a specialist, not by the method).
CITATION_SUBJECTS = settings.BASE_DIR / "search" / "eval" / "citation_subjects.json"
STAGES = ("embed", "stage1", "stage2", "total")
T = TypeVar("T")


class EvaluationInputError(ValueError):
    """The judged file is unreadable; the message says where."""


@dataclass
class JudgedQuery:
    id: str
    query: str
    rel: dict[str, int]
    forbid: list[str] = field(default_factory=list)
    expect_empty: bool = False
    source: str = ""  # the judged set (file stem): its own situations do not vote when it is measured


def judged_lines_read(path: Path, parse: Callable[[dict], T], *, expected: str) -> list[T]:
    """One parsed object per non-empty JSON line; a bad line stops with a Dutch message naming it."""
    if not path.exists():
        raise EvaluationInputError(f"Bestand niet gevonden: {path}")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(parse(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
            raise EvaluationInputError(f"{path}, regel {number}: verwacht {expected}.") from None
    return rows


def judged_queries_read(path: Path) -> list[JudgedQuery]:
    return judged_lines_read(
        path,
        lambda d: JudgedQuery(str(d["id"]), d["query"], dict(d.get("rel") or {}), list(d.get("forbid") or []), bool(d.get("expect_empty")), path.stem),
        expected="id, query en rel",
    )


def citation_subjects_read(path: Path = CITATION_SUBJECTS) -> dict[str, set[str]]:
    """Product name → the document titles a citation for it may come from."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(name): {str(title) for title in titles} for name, titles in data["products"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise EvaluationInputError(f"{path}: geen tabel {{'products': {{product: [documenten]}}}} ({error})") from None


def ndcg_at_3(names: list[str], rel: dict[str, int], expect_empty: bool) -> float:
    if expect_empty or not rel:
        return 1.0 if not names else 0.0
    dcg = sum((2 ** rel.get(name, 0) - 1) / math.log2(i + 2) for i, name in enumerate(names[:3]))
    ideal = sorted(rel.values(), reverse=True)[:3]
    idcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))
    return round(ordered[index], 2)


def evaluate(queries: list[JudgedQuery], modes: list[str], *, details: bool = False, subjects: dict[str, set[str]] | None = None) -> dict:
    """One row of metrics per mode; every mode runs over the same queries in the same process.

    With `subjects`, the share of top-3 citations that come from a document on the product's subject.
    """
    subjects = subjects or {}
    rows = {}
    per_query: dict[str, list[dict]] = {}
    search_run(SearchRequest(query="opwarmen"))  # model, thesaurus and connection load once, outside the figures
    for mode in modes:
        query_cache_clear()  # every mode pays for its own query embeddings
        ndcg, hits, precision, forbidden, recommended, cited, linked = [], [], [], 0, 0, 0, 0
        judged_citations = on_subject = 0
        timings = {stage: [] for stage in STAGES}
        per_query[mode] = []
        for judged in queries:
            base, _, variant = mode.partition("+")
            multi_query = {"multi": True, "single": False}.get(variant, settings.SEARCH_MULTI_QUERY)
            outcome = search_run(SearchRequest(query=judged.query, mode=base, top_k=3, multi_query=multi_query, held_out_source=judged.source))
            names = [item.product.name for item in outcome.recommendations]
            ndcg.append(ndcg_at_3(names, judged.rel, judged.expect_empty))
            if judged.expect_empty or not judged.rel:
                hits.append(1.0 if not names else 0.0)
                precision.append(1.0 if not names else 0.0)
            else:
                hits.append(1.0 if any(judged.rel.get(n, 0) > 0 for n in names[:3]) else 0.0)
                precision.append(sum(1 for n in names[:3] if judged.rel.get(n, 0) > 0) / 3)
            forbidden += sum(1 for n in names[:3] if n in judged.forbid)
            recommended += len(outcome.recommendations)
            cited += sum(1 for item in outcome.recommendations if item.citations)
            linked += sum(1 for item in outcome.recommendations if _has_link(item))
            for item in outcome.recommendations[:3]:
                allowed = subjects.get(item.product.name)
                if allowed is not None:
                    judged_citations += len(item.citations)
                    on_subject += sum(1 for citation in item.citations if citation.document_title in allowed)
            for stage in STAGES:
                timings[stage].append(outcome.timings_ms.get(stage, 0.0))
            per_query[mode].append({"id": judged.id, "ndcg@3": round(ndcg[-1], 3), "top3": names, "rel": judged.rel, "forbid": judged.forbid})
        count = max(len(queries), 1)
        rows[mode] = {
            "queries": len(queries),
            "ndcg@3": round(sum(ndcg) / count, 3),
            "hit@3": round(sum(hits) / count, 3),
            "precision@3": round(sum(precision) / count, 3),
            "forbidden_in_top3": forbidden,
            "citation_rate": round(cited / recommended, 3) if recommended else 0.0,
            "url_display_rate": round(linked / recommended, 3) if recommended else 1.0,
            "citations_on_subject": round(on_subject / judged_citations, 3) if judged_citations else None,
            **{f"{stage}_p50_ms": percentile(timings[stage], 50) for stage in STAGES},
            **{f"{stage}_p95_ms": percentile(timings[stage], 95) for stage in STAGES},
        }
    return {"modes": rows, "details": per_query} if details else {"modes": rows}


def _has_link(item) -> bool:
    from search.pipeline.links import display_link

    return bool(display_link(item.product).url)
