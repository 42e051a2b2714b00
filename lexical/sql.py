"""The one home of lexical scoring SQL: weighted query terms and BM25F over stored Dutch tsvectors.

Every query word is stemmed by PostgreSQL (`dutch`) and prefix-matched, so "klacht" finds
"klachten" and "klachtenregeling". BM25F: term frequency counts each occurrence by the weight of
the field it sits in (tsvector labels A–D), saturates with k1 and is normalised by document
length with b; IDF comes from the same table, so a term most documents share counts little.
Besides the score, each match reports `coverage`: the share of the query's own IDF mass it
matches, which tells whether a query is about this domain at all, independent of its length.
"""

from dataclasses import dataclass

K1 = 1.2
B = 0.75
MIN_LEXEME_LENGTH = 3  # a typed word's lexeme, matched as a prefix ("rug" must count)
# A product's name and problem areas used as a topic query over guideline documents: short lexemes
# of product names ("aan", "los", "pmo") as prefixes would put every document on every subject.
MIN_TOPIC_LEXEME_LENGTH = 4

TERMS_CTE = f"""
query_terms AS MATERIALIZED (
    SELECT v.lexeme, max(q.weight) AS weight, bool_or(q.own) AS own, to_tsquery('simple', quote_literal(v.lexeme) || ':*') AS tq
    FROM unnest(%(term_words)s::text[], %(term_weights)s::float8[], %(term_own)s::bool[]) AS q(word, weight, own)
    CROSS JOIN LATERAL unnest(to_tsvector('dutch', q.word)) AS v
    WHERE length(v.lexeme) >= {MIN_LEXEME_LENGTH}
    GROUP BY v.lexeme
)"""


@dataclass(frozen=True)
class FieldWeights:
    """How much one occurrence counts per tsvector label (A = title/heading … D)."""

    a: float
    b: float
    c: float = 1.0
    d: float = 1.0


def bm25_cte(name: str, *, table: str, weights: FieldWeights, where: str = "TRUE", shortlist: int = 0) -> str:
    """CTEs `<name>_df`, `<name>_stats`, `<name>_norm`, `<name>_match` and `<name>` (id, score, matched_terms, coverage).

    Needs TERMS_CTE before it; `where` filters the table's rows (alias x). Term frequencies need
    each matching row's tsvector unnested, which costs most on long texts; with `shortlist` > 0 only
    the rows that cover the query best (by IDF mass, from the GIN index alone) get a BM25F score.
    """
    shortlist_cte = (
        f""",
{name}_shortlist AS MATERIALIZED (
    SELECT id FROM {name}_match GROUP BY id ORDER BY sum(widf) DESC LIMIT {int(shortlist)}
)"""
        if shortlist
        else ""
    )
    shortlist_join = f"JOIN {name}_shortlist sl ON sl.id = m.id" if shortlist else ""
    return f"""
{name}_df AS MATERIALIZED (
    SELECT t.lexeme, t.weight, t.own, t.tq, count(x.id) AS df
    FROM query_terms t LEFT JOIN {table} x ON x.search_vector @@ t.tq AND ({where})
    GROUP BY t.lexeme, t.weight, t.own, t.tq
),
{name}_stats AS MATERIALIZED (
    SELECT greatest(count(*), 1)::float AS n, greatest(avg(length(x.search_vector)), 1)::float AS avgdl
    FROM {table} x WHERE ({where}) AND x.search_vector IS NOT NULL
),
{name}_norm AS MATERIALIZED (
    SELECT greatest(sum(ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5))), 1e-9) AS own_idf
    FROM {name}_df d CROSS JOIN {name}_stats s WHERE d.own
),
{name}_match AS MATERIALIZED (
    SELECT x.id, d.lexeme, d.weight * ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) AS widf
    FROM {name}_df d
    JOIN {table} x ON x.search_vector @@ d.tq AND ({where})
    CROSS JOIN {name}_stats s
    WHERE d.df > 0
){shortlist_cte},
{name} AS (
    SELECT m.id,
           sum(m.widf * tf.f * {K1 + 1} / (tf.f + {K1} * (1 - {B} + {B} * length(x.search_vector) / s.avgdl))) AS score,
           count(*) AS matched_terms,
           least(sum(m.widf) / nm.own_idf, 1.0) AS coverage
    FROM {name}_match m
    {shortlist_join}
    JOIN {table} x ON x.id = m.id
    CROSS JOIN {name}_stats s
    CROSS JOIN {name}_norm nm
    CROSS JOIN LATERAL (
        SELECT coalesce(sum(CASE w WHEN 'A' THEN {weights.a} WHEN 'B' THEN {weights.b} WHEN 'C' THEN {weights.c} ELSE {weights.d} END), 0) AS f
        FROM unnest(x.search_vector) AS u CROSS JOIN LATERAL unnest(u.weights) AS w
        WHERE starts_with(u.lexeme, m.lexeme)
    ) tf
    GROUP BY m.id, nm.own_idf
)"""
