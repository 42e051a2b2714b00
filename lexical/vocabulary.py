"""The words compounds may be split into: every word of the texts the apps register as searchable.

Apps register an SQL statement that returns their searchable text (see catalog/apps.py,
guidelines/apps.py), so this package depends on none of them. The vocabulary is read once per
process with PostgreSQL's own tokenizer (`ts_stat` over the `simple` configuration) and refreshed
after an index change in this process or after VOCABULARY_MAX_AGE_S (other processes' changes).
"""

import threading
import time

from django.db import connection

from lexical.compounds import Decompounder
from lexical.stats import corpus_stats_clear
from lexical.thesaurus import thesaurus_words

VOCABULARY_MAX_AGE_S = 300
_sources: dict[str, str] = {}
_lock = threading.Lock()
_state: dict[str, object] = {"decompounder": None, "loaded_at": 0.0}


def vocabulary_source_register(name: str, sql: str) -> None:
    """Register a statement returning one text column whose words belong to the vocabulary."""
    _sources[name] = sql


def vocabulary_words() -> set[str]:
    words = set(thesaurus_words())
    if not _sources:
        return words
    union = " UNION ALL ".join(f"SELECT to_tsvector('simple', coalesce(t.text, '')) FROM ({sql}) AS t(text)" for sql in _sources.values())
    with connection.cursor() as cursor:
        cursor.execute("SELECT word FROM ts_stat(%s) WHERE word ~ '^[a-zà-ÿ]+$'", [union])
        words.update(row[0] for row in cursor.fetchall())
    return words


def decompounder() -> Decompounder:
    """The process's decompounder over the current vocabulary."""
    with _lock:
        stale = time.monotonic() - float(_state["loaded_at"]) > VOCABULARY_MAX_AGE_S
        if _state["decompounder"] is None or stale:
            _state["decompounder"] = Decompounder(vocabulary_words())
            _state["loaded_at"] = time.monotonic()
        return _state["decompounder"]


def vocabulary_clear() -> None:
    """Forget the vocabulary and the BM25 corpus statistics (after the catalog, the wijzer or the
    corpus changed in this process)."""
    corpus_stats_clear()
    with _lock:
        _state["decompounder"] = None
