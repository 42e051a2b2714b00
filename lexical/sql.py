"""The one home of lexical scoring SQL: weighted query terms and BM25F over stored Dutch tsvectors.

Every query word is stemmed by PostgreSQL (`dutch`) and prefix-matched, so "klacht" finds
"klachten" and "klachtenregeling" (a lexeme under four letters only as a whole word, lexical.matching).
BM25F: term frequency counts each occurrence by the weight of the field it sits in (tsvector labels
A–D), saturates with k1 and is normalised by document length with b; IDF comes from the same table,
so a term most documents share counts little.
Besides the score, each match reports `coverage`: the share of the query's own IDF mass it
matches, which tells whether a query is about this domain at all, independent of its length.
"""

import math
from dataclasses import dataclass

from lexical.matching import lexeme_matches_sql, lexeme_range_end_sql, lexeme_tsquery_sql
from lexical.stats import corpus_stats, document_frequencies, word_lexemes
from lexical.terms import QueryTerms

K1 = 1.2
B = 0.75
MIN_LEXEME_LENGTH = 3  # a typed word's lexeme ("rug" must count)
# A product's name and problem areas used as a topic query over guideline documents: short lexemes
# of product names ("aan", "los", "pmo") as prefixes would put every document on every subject.
MIN_TOPIC_LEXEME_LENGTH = 4
# (row, term) matches a shortlist may enumerate; above it the commonest terms only score the shortlist.
SHORTLIST_MATCH_BUDGET = 2000

TERMS_CTE = f"""
query_terms AS MATERIALIZED (
    SELECT v.lexeme, max(q.weight) AS weight, bool_or(q.own) AS own, {lexeme_tsquery_sql("v.lexeme")} AS tq
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


@dataclass(frozen=True)
class Postings:
    """A table of (row key, lexeme COLLATE "C", a, b, c, d) mirroring a table's tsvector (catalog.ProductPosting)."""

    table: str
    key: str


def bm25_cte(name: str, *, table: str, weights: FieldWeights, where: str = "TRUE", shortlist: int = 0, postings: Postings | None = None) -> str:
    """CTEs `<name>_stats`, `<name>_df`, `<name>_norm`, `<name>_match`, the term-frequency CTEs,
    `<name>_tf_score`, `<name>_matched` and `<name>` (id, score, matched_terms, coverage).

    Needs TERMS_CTE before it and the parameters of `bm25_params(name, table, where)`; `where`
    filters the table's rows (alias x). Term frequencies need each matching row's tsvector
    unnested, which costs most on long texts; with `shortlist` > 0 only the rows that cover the
    query best (by IDF mass, from the GIN index alone) get a BM25F score, and those rows are found
    among the matches of the rarer terms only when listing every term's matches would exceed
    SHORTLIST_MATCH_BUDGET (a common word in a large corpus matches thousands of rows and adds
    little IDF mass); a shortlisted row is then scored on every term. With `postings` (and a
    shortlist) the frequencies come from one index range per (row, query lexeme) instead.
    """
    if postings and not shortlist:
        raise ValueError("postings score a shortlist only")
    # Without a shortlist every term lists its matches; with one, only the terms within the budget.
    listed_only = "AND d.listed" if shortlist else ""
    if postings:
        frequencies = _posting_frequencies(name, table=table, weights=weights, shortlist=shortlist, postings=postings)
        scored_match = f"{name}_scored_match"
    else:
        frequencies = _tsvector_frequencies(name, table=table, weights=weights, shortlist=shortlist)
        scored_match = f"{name}_scored_match" if shortlist else f"{name}_match"
    return f"""
{name}_stats AS MATERIALIZED (
    SELECT %({name}_n)s::float AS n, %({name}_avgdl)s::float AS avgdl
),
{name}_df AS MATERIALIZED (
    SELECT f.*, ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) AS idf
    FROM (
        SELECT t.lexeme, t.weight, t.own, t.tq, coalesce(d.df, 0) AS df, t.lexeme = ANY(%({name}_listed)s::text[]) AS listed
        FROM query_terms t
        LEFT JOIN unnest(%({name}_df_lexemes)s::text[], %({name}_df_counts)s::bigint[]) AS d(lexeme, df) ON d.lexeme = t.lexeme
    ) f
    CROSS JOIN {name}_stats s
),
{name}_norm AS MATERIALIZED (
    SELECT greatest(sum(d.idf), 1e-9) AS own_idf FROM {name}_df d WHERE d.own
),
{name}_match AS MATERIALIZED (
    SELECT x.id, d.lexeme, d.weight * d.idf AS widf
    FROM {name}_df d
    JOIN {table} x ON x.search_vector @@ d.tq AND ({where})
    WHERE d.df > 0 {listed_only}
),
{frequencies},
{name}_tf_score AS MATERIALIZED (
    SELECT t.id, sum(t.widf * t.f * {K1 + 1} / (t.f + {K1} * (1 - {B} + {B} * t.length / s.avgdl))) AS score
    FROM {name}_tf t
    CROSS JOIN {name}_stats s
    GROUP BY t.id
),
{name}_matched AS MATERIALIZED (
    SELECT m.id, count(*) AS matched_terms, sum(m.widf) AS widf FROM {scored_match} m GROUP BY m.id
),
{name} AS MATERIALIZED (
    -- Materialised: joined inline, the planner (which sees no row counts inside CTEs) re-ran this
    -- join once per row of the outer table, 14 of 25 ms of stage 1 for the wijzer lines.
    -- A term whose prefix matched no weighted occurrence adds nothing to the score but counts as matched.
    SELECT mt.id, coalesce(ts.score, 0) AS score, mt.matched_terms, least(mt.widf / nm.own_idf, 1.0) AS coverage
    FROM {name}_matched mt
    CROSS JOIN {name}_norm nm
    LEFT JOIN {name}_tf_score ts ON ts.id = mt.id
)"""


def _shortlist_cte(name: str, *, shortlist: int) -> str:
    return f"""{name}_shortlist AS MATERIALIZED (
    SELECT id FROM {name}_match GROUP BY id ORDER BY sum(widf) DESC LIMIT {int(shortlist)}
)"""


def _label_weight(weights: FieldWeights, label: str) -> str:
    return f"CASE {label} WHEN 'A' THEN {weights.a} WHEN 'B' THEN {weights.b} WHEN 'C' THEN {weights.c} ELSE {weights.d} END"


def _tsvector_frequencies(name: str, *, table: str, weights: FieldWeights, shortlist: int) -> str:
    """`<name>_tf` (id, length, widf, f) from each scored row's tsvector, unnested once."""
    scored_match = f"{name}_match"
    rows_table = table
    shortlisted = ""
    if shortlist:
        scored_match, rows_table = f"{name}_scored_match", f"{name}_rows"
        shortlisted = f"""{_shortlist_cte(name, shortlist=shortlist)},
{name}_rows AS MATERIALIZED (
    -- The shortlisted rows' tsvectors read once: joined in the term test below, the planner fetched
    -- every row again for every query term (1,080 index lookups for 18 terms at 10,000 products).
    SELECT x.id, x.search_vector FROM {name}_shortlist sl JOIN {table} x ON x.id = sl.id
),
{name}_scored_match AS MATERIALIZED (
    -- Each shortlisted row tested against every term.
    SELECT r.id, d.lexeme, d.weight * d.idf AS widf
    FROM {name}_rows r
    CROSS JOIN {name}_df d
    WHERE d.df > 0 AND r.search_vector @@ d.tq
),
"""
    return f"""{shortlisted}{name}_lexemes AS MATERIALIZED (
    -- Each scored row's tsvector unnested once, kept where a stored lexeme starts with one of the
    -- query lexemes that row matched, and labelled with that query lexeme; with the row's length.
    SELECT f.id, f.length, q.term, f.weights
    FROM (
        SELECT r.id, r.terms, length(x.search_vector) AS length, u.lexeme, u.weights
        FROM (SELECT id, array_agg(lexeme) AS terms FROM {scored_match} GROUP BY id) r
        JOIN {rows_table} x ON x.id = r.id
        CROSS JOIN LATERAL unnest(x.search_vector) AS u
        WHERE u.lexeme ^@ ANY(r.terms)
        OFFSET 0
    ) f
    CROSS JOIN LATERAL unnest(f.terms) AS q(term)
    WHERE {lexeme_matches_sql("f.lexeme", "q.term")}
),
{name}_tf AS MATERIALIZED (
    -- Each row's matching lexemes grouped by query term; no join with the matches, whose row
    -- estimates would lead the planner into a nested loop.
    SELECT l.id, l.length, d.weight * d.idf AS widf, sum({_label_weight(weights, "w")}) AS f
    FROM {name}_lexemes l
    JOIN {name}_df d ON d.lexeme = l.term AND d.df > 0
    CROSS JOIN LATERAL unnest(l.weights) AS w
    GROUP BY l.id, l.length, l.term, d.weight, d.idf
)"""


def _posting_frequencies(name: str, *, table: str, weights: FieldWeights, shortlist: int, postings: Postings) -> str:
    """`<name>_tf` (id, length, widf, f) from the postings: per shortlisted row and query lexeme one
    btree range over the lexemes it matches (bytewise order: below lexeme || U+10FFFF, or only the
    lexeme itself where it is too short to match as a prefix)."""
    per_occurrence = f"(p.a * {weights.a} + p.b * {weights.b} + p.c * {weights.c} + p.d * {weights.d})"
    return f"""{_shortlist_cte(name, shortlist=shortlist)},
{name}_rows AS MATERIALIZED (
    SELECT x.id, length(x.search_vector) AS length FROM {name}_shortlist sl JOIN {table} x ON x.id = sl.id
),
{name}_scored_match AS MATERIALIZED (
    -- Every shortlisted row against every term; a row without a posting for a term does not match it
    -- (as `search_vector @@ 'lexeme:*'` would not).
    SELECT r.id, r.length, d.lexeme, d.weight * d.idf AS widf, tf.f
    FROM {name}_rows r
    CROSS JOIN {name}_df d
    CROSS JOIN LATERAL (
        SELECT sum({per_occurrence}) AS f
        FROM {postings.table} p
        WHERE p.{postings.key} = r.id AND p.lexeme >= d.lexeme AND p.lexeme < {lexeme_range_end_sql("d.lexeme")}
    ) tf
    WHERE d.df > 0 AND tf.f IS NOT NULL
),
{name}_tf AS (
    SELECT id, length, widf, f FROM {name}_scored_match  -- the frequencies are already there
)"""


def bm25_params(name: str, *, terms: QueryTerms, table: str, where: str = "TRUE") -> dict:
    """The corpus statistics `bm25_cte(name, …)` reads for these query terms, from the per-process
    cache (lexical.stats): row count, mean length and each lexeme's document frequency, and which
    lexemes list their matches for a shortlist (the rarest, within SHORTLIST_MATCH_BUDGET)."""
    n, avgdl = corpus_stats(table, where)
    lexemes = sorted({lexeme for found in word_lexemes(list(terms.words), min_length=MIN_LEXEME_LENGTH).values() for lexeme in found})
    frequencies = document_frequencies(table, where, lexemes)
    listed, pairs = [], 0
    for lexeme in sorted(lexemes, key=lambda lexeme: (frequencies.get(lexeme, 0), lexeme)):
        if listed and pairs + frequencies.get(lexeme, 0) > SHORTLIST_MATCH_BUDGET:
            break
        listed.append(lexeme)
        pairs += frequencies.get(lexeme, 0)
    return {
        f"{name}_listed": listed,
        f"{name}_n": n,
        f"{name}_avgdl": avgdl,
        f"{name}_df_lexemes": lexemes,
        f"{name}_df_counts": [frequencies.get(lexeme, 0) for lexeme in lexemes],
    }


def matchable_share(name: str, *, terms: QueryTerms, params: dict) -> float:
    """The share of the query's own IDF mass (the denominator of `coverage`) in words some row contains.

    A word no row has ("logopedist", "zomer") lowers every row's coverage alike; dividing a coverage
    by this share gives how much of what the rows *could* match a row matches, which compares rows of
    a long, wordy situation fairly. `params` are those of `bm25_params(name, …)`.
    """
    n = params[f"{name}_n"]
    frequencies = dict(zip(params[f"{name}_df_lexemes"], params[f"{name}_df_counts"]))
    own_words = [word for word, own in zip(terms.words, terms.own) if own]
    own_lexemes = {lexeme for found in word_lexemes(own_words, min_length=MIN_LEXEME_LENGTH).values() for lexeme in found}
    # The IDF of `<name>_df` in bm25_cte, in Python: the two must stay alike.
    idf = {lexeme: math.log(1 + (n - frequencies.get(lexeme, 0) + 0.5) / (frequencies.get(lexeme, 0) + 0.5)) for lexeme in own_lexemes}
    total = sum(idf.values())
    return sum(value for lexeme, value in idf.items() if frequencies.get(lexeme, 0) > 0) / total if total else 0.0
