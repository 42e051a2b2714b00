"""Identical searches answered from the cache: Redis, or the database when Redis is away.

The key is the normalised situation (names scrubbed, case and spacing ignored), the form fields,
mode, top_k, multi-query, the cache generation: a sequence that every committed change to the
catalog, the guideline corpus, the wijzer, ranking versions, votes or the embedding index advances
(migration search.0007), so a change invalidates every cached search at once; and a fingerprint of
the code and word lists that rank, so a deploy that changes the ranking never serves answers of the
old code (web processes of two versions may share one Redis during a rolling deploy). A hit says so in its
timings (`cache`, and the original `cached_total`), gets the products as they are now (link status
included), and is recorded as a search of its own like any other.
"""

import functools
import hashlib
import json
import logging
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import caches

from catalog.models import UNUSED_IN_PYTHON, Product
from search.pipeline.generation import cache_generation
from search.pipeline.request import (
    SearchRequest,
    scrub_names,
    validate_query,
    validate_request,
)
from search.pipeline.run import SearchOutcome, search_run

logger = logging.getLogger(__name__)

REDIS_RETRY_S = 30.0  # after a Redis failure, use the database cache this long before trying Redis again
_redis_down_until = 0.0


def search_run_cached(request: SearchRequest) -> SearchOutcome:
    """search_run, or its answer to the same search made earlier within SEARCH_CACHE_SECONDS."""
    if settings.SEARCH_CACHE_SECONDS <= 0:
        return search_run(request)
    started = time.perf_counter()
    validate_request(request)
    query = scrub_names(validate_query(request.query), request.employee_name, request.company_name)
    key = _key(request, query)
    cached = _get(key)
    if cached is not None:
        return _as_fresh_hit(cached, query=query, started=started)
    outcome = search_run(request)
    _set(key, outcome)
    return outcome




def _key(request: SearchRequest, query: str) -> str:
    fields = {
        "query": " ".join(query.lower().split()),
        "role": request.role.strip().lower(),
        "sector": request.sector.strip().lower(),
        "duration": request.duration.strip().lower(),
        "budget": request.budget.strip().lower(),
        "mode": request.mode,
        "top_k": request.top_k,
        "multi_query": request.multi_query,
        "generation": cache_generation(),
        "code": ranking_code_fingerprint(),
    }
    return "search:" + hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


# What decides a search's answer besides the data: the pipeline's code and the lexical word lists.
_RANKING_SOURCES = (("search", "pipeline"), ("lexical",))


@functools.cache
def ranking_code_fingerprint() -> str:
    """A hash of the pipeline's and the lexical package's source and word lists, read once per process."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for parts in _RANKING_SOURCES:
        for path in sorted(root.joinpath(*parts).rglob("*")):
            if path.suffix in (".py", ".json") and "tests" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _as_fresh_hit(outcome: SearchOutcome, *, query: str, started: float) -> SearchOutcome:
    """The cached outcome with this request's text, today's product rows and timings that say it was cached."""
    items = outcome.recommendations + outcome.workplace_suggestions
    current = Product.objects.defer(*UNUSED_IN_PYTHON).in_bulk([item.product.id for item in items])
    for item in items:
        item.product = current.get(item.product.id, item.product)
    elapsed = round((time.perf_counter() - started) * 1000, 2)
    outcome.query = query
    outcome.search_id = None
    outcome.timings_ms = {"cache": elapsed, "total": elapsed, "cached_total": outcome.timings_ms.get("total", 0.0)}
    return outcome


def _get(key: str) -> SearchOutcome | None:
    for cache in _caches():
        try:
            return cache.get(key)
        except Exception as error:  # noqa: BLE001 - any Redis failure means: use the database cache
            _redis_failed(error)
    return None


def _set(key: str, outcome: SearchOutcome) -> None:
    for cache in _caches():
        try:
            cache.set(key, outcome, settings.SEARCH_CACHE_SECONDS)
            return
        except Exception as error:  # noqa: BLE001 - as in _get
            _redis_failed(error)


def _caches():
    """Redis first unless it failed recently, then the database cache."""
    if time.monotonic() >= _redis_down_until:
        yield caches["search"]
    yield caches["search_fallback"]


def _redis_failed(error: Exception) -> None:
    global _redis_down_until
    _redis_down_until = time.monotonic() + REDIS_RETRY_S
    logger.warning("search cache: Redis unavailable (%s), using the database cache for %gs", type(error).__name__, REDIS_RETRY_S)
