"""One SQL statement that records a search: its SearchLog, its Recommendations and their Citations.

Through the ORM this took a transaction with three INSERTs and a model instance per row, about a
seventh of a search's time on the web path (profile in README, "Doorvoer"). Here the rows travel as one
JSON document and PostgreSQL fills each table's row type from it (jsonb_populate_record), so one round
trip writes all of them, atomically. The column lists come from the models, and a row that misses a
column or names an unknown one is refused before anything is sent, so a new model field cannot be
written as NULL by accident.
"""

import datetime
import functools
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection

from embeddings.cursor import server_bound_cursor
from search.models import Citation, Recommendation, SearchLog


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds as the ORM would store them."""

    def default(self, value):
        if isinstance(value, datetime.datetime):
            return value.isoformat()
        return super().default(value)


def _columns(model, *, parent: str | None = None) -> tuple[str, ...]:
    """The model's columns this statement writes: all but the primary key and the parent link."""
    return tuple(field.column for field in model._meta.concrete_fields if not field.primary_key and field.column != parent)


@functools.cache
def _statement() -> tuple[str, dict[type, tuple[str, ...]]]:
    columns = {
        SearchLog: _columns(SearchLog),
        Recommendation: _columns(Recommendation, parent="search_id"),
        Citation: _columns(Citation, parent="recommendation_id"),
    }

    def listed(model, prefix: str = "") -> str:
        return ", ".join(f"{prefix}{connection.ops.quote_name(column)}" for column in columns[model])

    sql = f"""
WITH log AS (
    INSERT INTO {SearchLog._meta.db_table} ({listed(SearchLog)})
    SELECT {listed(SearchLog, "l.")} FROM jsonb_populate_record(NULL::{SearchLog._meta.db_table}, %(log)s::jsonb) l
    RETURNING id
), recommendation AS (
    INSERT INTO {Recommendation._meta.db_table} (search_id, {listed(Recommendation)})
    SELECT log.id, {listed(Recommendation, "r.")}
    FROM log, jsonb_array_elements(%(recommendations)s::jsonb) WITH ORDINALITY AS e(row, n)
    CROSS JOIN LATERAL jsonb_populate_record(NULL::{Recommendation._meta.db_table}, e.row) r
    ORDER BY e.n
    RETURNING id, section, rank
), citation AS (
    INSERT INTO {Citation._meta.db_table} (recommendation_id, {listed(Citation)})
    SELECT recommendation.id, {listed(Citation, "c.")}
    FROM jsonb_array_elements(%(citations)s::jsonb) WITH ORDINALITY AS e(row, n)
    CROSS JOIN LATERAL jsonb_populate_record(NULL::{Citation._meta.db_table}, e.row) c
    JOIN recommendation ON recommendation.section = e.row->>'recommendation_section' AND recommendation.rank = (e.row->>'recommendation_rank')::int
    ORDER BY e.n
)
SELECT id FROM log
"""
    return sql, columns


def _checked(model, row: dict, columns: tuple[str, ...], *, extra: frozenset[str] = frozenset()) -> dict:
    if set(row) - extra != set(columns):
        missing, unknown = sorted(set(columns) - set(row)), sorted(set(row) - extra - set(columns))
        raise ValueError(f"{model.__name__} row does not match its table: missing {missing}, unknown {unknown}")
    return row


CITATION_KEYS = frozenset({"recommendation_section", "recommendation_rank"})


def search_rows_insert(*, log: dict, recommendations: list[dict], citations: list[dict]) -> int:
    """Write a search and return its id. Each citation names its recommendation by
    `recommendation_section` and `recommendation_rank`."""
    sql, columns = _statement()
    payload = {
        "log": _checked(SearchLog, log, columns[SearchLog]),
        "recommendations": [_checked(Recommendation, row, columns[Recommendation]) for row in recommendations],
        "citations": [_checked(Citation, row, columns[Citation], extra=CITATION_KEYS) for row in citations],
    }
    # Server-bound and prepared: the JSON travels as a parameter, not quoted into the statement text.
    with server_bound_cursor() as cursor:
        cursor.execute(sql, {name: json.dumps(value, cls=_Encoder, ensure_ascii=False) for name, value in payload.items()})
        return cursor.fetchone()[0]
