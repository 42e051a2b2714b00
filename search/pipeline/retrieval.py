"""Stage 1: hybrid candidate retrieval over products in one SQL round trip.

Three ranked lists come back from a single statement:
- vector: cosine kNN over product embeddings, ordered by distance with a LIMIT so HNSW is used;
- lexical: Dutch full-text over name, problem areas, description and linked wijzer lines. Each
  stemmed query word is prefix-matched and weighted by its inverse document frequency, because
  plain `ts_rank` has no IDF and a long situation ("medewerker … weken ziek") would otherwise
  rank on its most common words; OR semantics because a specialist's sentence never matches a
  product in every word;
- wijzer: products linked to the interventiewijzer lines that match the situation best.
Fusion (RRF or a weighted blend) happens in Python on those numbers; see `fuse`.
"""

from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import connection

RRF_K = 60
EXPANSION_WEIGHT = 0.5

_SQL = """
WITH
own AS (
    SELECT DISTINCT lexeme FROM unnest(to_tsvector('dutch', %(text)s)) WHERE length(lexeme) >= 3
),
qlex AS (
    SELECT lexeme, 1.0 AS weight FROM own
    UNION ALL
    SELECT DISTINCT lexeme, %(expansion_weight)s FROM unnest(to_tsvector('dutch', %(expansion)s))
    WHERE length(lexeme) >= 3 AND lexeme NOT IN (SELECT lexeme FROM own)
),
terms AS MATERIALIZED (
    SELECT lexeme, weight, to_tsquery('simple', quote_literal(lexeme) || ':*') AS tq FROM qlex
),
product_df AS MATERIALIZED (
    SELECT t.lexeme, t.weight, t.tq, count(p.id) AS df
    FROM terms t LEFT JOIN catalog_product p ON p.is_active AND p.search_vector @@ t.tq
    GROUP BY t.lexeme, t.weight, t.tq
),
product_total AS MATERIALIZED (SELECT greatest(count(*), 1)::float AS n FROM catalog_product WHERE is_active),
lexical AS (
    SELECT p.id, sum(d.weight * ln(1 + (pt.n - d.df + 0.5) / (d.df + 0.5)) * ts_rank(p.search_vector, d.tq)) AS score,
           count(*) AS matched_terms
    FROM product_df d
    JOIN catalog_product p ON p.is_active AND p.search_vector @@ d.tq
    CROSS JOIN product_total pt
    WHERE d.df > 0
    GROUP BY p.id
),
vector AS (
    SELECT id FROM catalog_product
    WHERE is_active AND embedding IS NOT NULL
    ORDER BY embedding <=> %(vec)s::vector
    LIMIT %(limit)s
),
mapping_df AS MATERIALIZED (
    SELECT t.lexeme, t.weight, t.tq, count(m.id) AS df
    FROM terms t LEFT JOIN guidelines_interventionmapping m ON m.search_vector @@ t.tq
    GROUP BY t.lexeme, t.weight, t.tq
),
mapping_total AS MATERIALIZED (SELECT greatest(count(*), 1)::float AS n FROM guidelines_interventionmapping),
mapping_lexical AS (
    SELECT m.id, sum(d.weight * ln(1 + (mt.n - d.df + 0.5) / (d.df + 0.5)) * ts_rank(m.search_vector, d.tq)) AS score
    FROM mapping_df d
    JOIN guidelines_interventionmapping m ON m.search_vector @@ d.tq
    CROSS JOIN mapping_total mt
    WHERE d.df > 0
    GROUP BY m.id
),
mapping_scored AS (
    SELECT m.id,
           1 - (m.embedding <=> %(vec)s::vector) AS similarity,
           coalesce(ml.score, 0) AS lexical
    FROM guidelines_interventionmapping m
    LEFT JOIN mapping_lexical ml ON ml.id = m.id
    WHERE m.embedding IS NOT NULL
),
wijzer AS (
    SELECT mp.product_id AS id,
           max(ms.similarity) AS similarity,
           max(ms.lexical) AS lexical
    FROM mapping_scored ms
    JOIN guidelines_interventionmapping_products mp ON mp.interventionmapping_id = ms.id
    GROUP BY mp.product_id
),
candidate_ids AS (
    SELECT id FROM vector UNION SELECT id FROM lexical UNION SELECT id FROM wijzer
)
SELECT p.id, p.name,
       CASE WHEN p.embedding IS NULL THEN 0 ELSE 1 - (p.embedding <=> %(vec)s::vector) END AS similarity,
       coalesce(l.score, 0) AS lexical,
       coalesce(l.matched_terms, 0) AS matched_terms,
       coalesce(w.similarity, 0) AS wijzer_similarity,
       coalesce(w.lexical, 0) AS wijzer_lexical
FROM candidate_ids c
JOIN catalog_product p ON p.id = c.id AND p.is_active
LEFT JOIN lexical l ON l.id = p.id
LEFT JOIN wijzer w ON w.id = p.id
"""


@dataclass
class Candidate:
    product_id: int
    similarity: float
    lexical: float
    matched_terms: int
    wijzer_similarity: float
    wijzer_lexical: float
    fused: float = 0.0
    name: str = ""

    @property
    def wijzer(self) -> float:
        """How strongly an interventiewijzer line that points to this product matches the situation."""
        return max(0.0, self.wijzer_similarity) + 0.5 * min(self.wijzer_lexical, 2.0)


def candidates_fetch(*, text: str, vector: np.ndarray, limit: int, expansion: str = "") -> list[Candidate]:
    """All products any of the three routes found, with their raw scores (not yet floored or fused).

    `expansion` holds thesaurus words; they count for EXPANSION_WEIGHT of the specialist's own words.
    """
    params = {"text": text, "expansion": expansion, "expansion_weight": EXPANSION_WEIGHT, "vec": vector_literal(vector), "limit": limit}
    with connection.cursor() as cursor:
        cursor.execute(_SQL, params)
        rows = cursor.fetchall()
    return [Candidate(int(r[0]), float(r[2]), float(r[3]), int(r[4]), float(r[5]), float(r[6]), name=r[1]) for r in rows]


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form of a vector, for raw SQL parameters."""
    return "[" + ",".join(f"{x:.6f}" for x in vector) + "]"


def fuse(candidates: list[Candidate], *, method: str) -> list[Candidate]:
    """Order candidates by RRF (k=60) over the three lists, or by a weighted blend of normalised scores."""
    if not candidates:
        return []
    if method == "rrf":
        for key in ("similarity", "lexical", "wijzer"):
            ordered = sorted((c for c in candidates if _signal(c, key) > 0), key=lambda c: _signal(c, key), reverse=True)
            for rank, candidate in enumerate(ordered, start=1):
                candidate.fused += 1.0 / (RRF_K + rank)
    else:
        maxima = {key: max(_signal(c, key) for c in candidates) or 1.0 for key in ("similarity", "lexical", "wijzer")}
        weights = settings.SEARCH_BLEND_WEIGHTS
        for candidate in candidates:
            candidate.fused = sum(
                weights[key] * max(0.0, _signal(candidate, key)) / maxima[key] for key in ("similarity", "lexical", "wijzer")
            )
    return sorted(candidates, key=lambda c: c.fused, reverse=True)


def _signal(candidate: Candidate, key: str) -> float:
    return candidate.wijzer if key == "wijzer" else getattr(candidate, key)
