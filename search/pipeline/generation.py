"""The data generation: a PostgreSQL sequence that triggers advance with every committed change to what a
search depends on (catalog, corpus, wijzer, ranking versions, votes, embedding index, judged situations and
questions; search migrations 0007-0009). The search cache keys on it; the precedent indexes rebuild on it."""

from django.db import connection


def cache_generation() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT last_value FROM search_cache_generation")
        return int(cursor.fetchone()[0])
