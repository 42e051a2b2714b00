"""The words compounds may be split into: every word of the texts the apps register as searchable.

Apps register an SQL statement that returns their searchable text (see catalog/apps.py,
guidelines/apps.py), so this package depends on none of them. The vocabulary is read once per
process with PostgreSQL's own tokenizer (`ts_stat` over the `simple` configuration) and refreshed
after an index change in this process (at once) or after VOCABULARY_MAX_AGE_S (other processes'
changes; in a background thread, while searches go on with the vocabulary they have: a reload
takes ~0.8 s at 10,000 products, which no search should wait for).
"""

import logging
import threading
import time

from django.db import connection

from lexical.compounds import Decompounder
from lexical.stats import corpus_stats_clear
from lexical.thesaurus import thesaurus_words

logger = logging.getLogger(__name__)

VOCABULARY_MAX_AGE_S = 300
_sources: dict[str, str] = {}
_lock = threading.Lock()
# `generation` counts clears, so a background refresh that began before a clear never installs its older result.
_state: dict[str, object] = {"decompounder": None, "loaded_at": 0.0, "generation": 0, "refresh": None}


def vocabulary_source_register(name: str, sql: str) -> None:
    """Register a statement returning one text column whose words belong to the vocabulary."""
    _sources[name] = sql


def vocabulary_words() -> set[str]:
    words = set(thesaurus_words())
    if not _sources:
        return words
    union = " UNION ALL ".join(f"SELECT to_tsvector('simple', coalesce(t.text, '')) FROM ({sql}) AS t(text)" for sql in _sources.values())
    with connection.cursor() as cursor:
        # Hyphenated words too ("burn-out"), so a joined spelling typed for one can find it (lexical.terms).
        cursor.execute("SELECT word FROM ts_stat(%s) WHERE word ~ '^[a-zà-ÿ]+(-[a-zà-ÿ]+)*$'", [union])
        words.update(row[0] for row in cursor.fetchall())
    return words


def decompounder() -> Decompounder:
    """The process's decompounder over the current vocabulary; an old one is refreshed in the background."""
    with _lock:
        current = _state["decompounder"]
        if current is None:
            current = _state["decompounder"] = Decompounder(vocabulary_words())
            _state["loaded_at"] = time.monotonic()
        elif time.monotonic() - float(_state["loaded_at"]) > VOCABULARY_MAX_AGE_S and _state["refresh"] is None:
            refresh = threading.Thread(target=_refresh, args=(_state["generation"],), name="vocabulary-refresh", daemon=True)
            _state["refresh"] = refresh
            refresh.start()
        return current


def vocabulary_refresh_wait(timeout: float | None = None) -> None:
    """Wait for a background refresh under way, if any (tests, and commands that want the newest words)."""
    refresh = _state["refresh"]
    if isinstance(refresh, threading.Thread):
        refresh.join(timeout)


def _refresh(generation: int) -> None:
    try:
        fresh = Decompounder(vocabulary_words())
        with _lock:
            if _state["generation"] == generation:
                _state["decompounder"], _state["loaded_at"] = fresh, time.monotonic()
    except Exception:  # noqa: BLE001 - a failed refresh keeps the old words and tries again after the next max age
        logger.exception("vocabulary refresh failed; keeping the current vocabulary")
        with _lock:
            _state["loaded_at"] = time.monotonic()
    finally:
        with _lock:
            _state["refresh"] = None
        connection.close()  # this thread's own database connection


def vocabulary_generation() -> int:
    """How often the vocabulary was cleared in this process."""
    return int(_state["generation"])


def vocabulary_clear() -> None:
    """Forget the vocabulary and the BM25 corpus statistics (after the catalog, the wijzer or the
    corpus changed in this process)."""
    corpus_stats_clear()
    with _lock:
        _state["decompounder"] = None
        _state["generation"] = int(_state["generation"]) + 1
