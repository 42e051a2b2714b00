"""BM25 corpus statistics per table, cached per process: row count, mean tsvector length, and the
document frequency of each query lexeme.

Counting a table and averaging the length of every tsvector costs a full scan (about 50 ms at
10,000 products, more at 100,000 passages), and counting the rows that contain a lexeme visits
every one of them (thousands per common word at that size), on every query, while the figures
barely move and specialists' words repeat. They are kept for STATS_MAX_AGE_S, and forgotten at once
when this process changes an index (lexical.vocabulary.vocabulary_clear); another process's change
shows after at most that long. The Dutch lexemes of a word never change and are kept for good.
"""

import threading
import time

from django.db import connection

from lexical.matching import lexeme_tsquery_sql

STATS_MAX_AGE_S = 60.0
_lock = threading.Lock()
_cache: dict[tuple[str, str], tuple[float, float, float]] = {}  # (table, where) → (loaded_at, n, avgdl)
_df_cache: dict[tuple[str, str, str], tuple[float, int]] = {}  # (table, where, lexeme) → (loaded_at, df)
_lexeme_cache: dict[str, tuple[str, ...]] = {}
CACHE_MAX_ENTRIES = 200_000


def corpus_stats(table: str, where: str = "TRUE") -> tuple[float, float]:
    """(n, avgdl) over the table's rows that pass `where` (alias x) and have a tsvector."""
    key = (table, where)
    with _lock:
        cached = _cache.get(key)
    if cached and time.monotonic() - cached[0] < STATS_MAX_AGE_S:
        return cached[1], cached[2]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT greatest(count(*), 1)::float, greatest(avg(length(x.search_vector)), 1)::float "
            f"FROM {table} x WHERE ({where}) AND x.search_vector IS NOT NULL"
        )
        n, avgdl = cursor.fetchone()
    with _lock:
        _cache[key] = (time.monotonic(), n, avgdl)
    return n, avgdl


def word_lexemes(words: list[str], *, min_length: int) -> dict[str, tuple[str, ...]]:
    """Each word's Dutch lexemes as PostgreSQL stems them (to_tsvector('dutch')), long enough to count."""
    missing = sorted({word for word in words if word not in _lexeme_cache})
    if missing:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT q.word, coalesce(array_agg(v.lexeme) FILTER (WHERE length(v.lexeme) >= %s), '{}') "
                "FROM unnest(%s::text[]) AS q(word) LEFT JOIN LATERAL unnest(to_tsvector('dutch', q.word)) AS v ON TRUE "
                "GROUP BY q.word",
                [min_length, missing],
            )
            found = {word: tuple(lexemes) for word, lexemes in cursor.fetchall()}
        with _lock:
            if len(_lexeme_cache) > CACHE_MAX_ENTRIES:
                _lexeme_cache.clear()
            _lexeme_cache.update(found)
    return {word: _lexeme_cache.get(word, ()) for word in words}


def document_frequencies(table: str, where: str, lexemes: list[str]) -> dict[str, int]:
    """How many rows (passing `where`, alias x) contain a word starting with each lexeme."""
    now = time.monotonic()
    with _lock:
        cached = {lexeme: _df_cache.get((table, where, lexeme)) for lexeme in set(lexemes)}
    result = {lexeme: hit[1] for lexeme, hit in cached.items() if hit and now - hit[0] < STATS_MAX_AGE_S}
    missing = sorted(set(lexemes) - set(result))
    if missing:
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT t.lexeme, count(x.id) FROM unnest(%s::text[]) AS t(lexeme) "
                f"LEFT JOIN {table} x ON x.search_vector @@ {lexeme_tsquery_sql('t.lexeme')} AND ({where}) "
                f"GROUP BY t.lexeme",
                [missing],
            )
            counted = dict(cursor.fetchall())
        with _lock:
            if len(_df_cache) > CACHE_MAX_ENTRIES:
                _df_cache.clear()
            for lexeme, df in counted.items():
                _df_cache[(table, where, lexeme)] = (now, int(df))
        result.update(counted)
    return result


def corpus_stats_clear() -> None:
    with _lock:
        _cache.clear()
        _df_cache.clear()
