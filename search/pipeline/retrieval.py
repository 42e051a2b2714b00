"""Stage 1: hybrid candidate retrieval over products in one SQL round trip.

Three ranked lists come back from a single statement:
- vector: cosine kNN over product embeddings, ordered by distance with a LIMIT so HNSW is used;
- lexical: BM25F over the Dutch tsvector of name (A), problem areas (B) and description plus linked
  wijzer lines (C), with compound parts and thesaurus words at lower weight (see lexical.sql);
  OR semantics, because a specialist's sentence never matches a product in every word;
- wijzer: products linked to the interventiewijzer lines that match the situation best.
Each lexical match also reports its coverage of the query (the in-domain gate, search.pipeline.run).
Fusion (RRF or a weighted blend) happens in Python on those numbers; see `fuse`.
"""

from dataclasses import dataclass

from django.conf import settings

from embeddings.cursor import server_bound_cursor
from embeddings.selectors import COMMON_SIMILARITY, QueryEmbedding
from lexical.sql import (
    TERMS_CTE,
    FieldWeights,
    Postings,
    bm25_cte,
    bm25_params,
    matchable_share,
)
from lexical.terms import QueryTerms
from search.pipeline.fusion import reciprocal_rank_fusion

PRODUCT_FIELDS = FieldWeights(a=3.0, b=2.0, c=1.0)  # a word in the name or a problem area says more than one in the description
MAPPING_FIELDS = FieldWeights(a=1.0, b=1.0)
# Bounds on what the lexical and wijzer routes hand to fusion, so a large catalog does not turn every
# product into a candidate. Well above the demo catalog (59 products), where they change nothing; the
# fused list is cut to SEARCH_CANDIDATES (at most 200) anyway.
LEXICAL_SHORTLIST = 60  # above SEARCH_CANDIDATES (50): the fused list is cut there
PRODUCTS = {"table": "catalog_product", "where": "x.is_active"}
PRODUCT_POSTINGS = Postings("catalog_productposting", "product_id")  # catalog.ProductPosting
MAPPINGS = {"table": "guidelines_interventionmapping"}
WIJZER_SHORTLIST = 150
WIJZER_MAPPINGS = 15  # wijzer lines whose products become candidates (all lines still score a candidate)

_SQL = f"""
WITH
{TERMS_CTE},
{bm25_cte("lexical", **PRODUCTS, weights=PRODUCT_FIELDS, shortlist=LEXICAL_SHORTLIST, postings=PRODUCT_POSTINGS)},
{bm25_cte("mapping_lexical", **MAPPINGS, weights=MAPPING_FIELDS)},
vector AS (
    SELECT id FROM catalog_product
    WHERE is_active AND embedding_model = %(model)s
    ORDER BY embedding <=> %(vec)s::vector
    LIMIT %(limit)s
),
mapping_scored AS MATERIALIZED (
    SELECT m.id,
           {COMMON_SIMILARITY.format(column="m.embedding")} AS similarity,
           coalesce(ml.score, 0) AS lexical,
           coalesce(ml.coverage, 0) AS coverage
    FROM guidelines_interventionmapping m
    LEFT JOIN mapping_lexical ml ON ml.id = m.id
    WHERE m.embedding_model = %(model)s
),
wijzer_route AS (
    -- The products of the wijzer lines that match best; a product's wijzer score (below) still
    -- counts all its lines, but a large catalog linked to every line is not a candidate list.
    -- Each line offers only its first WIJZER_SHORTLIST products by id: the result is the same (a
    -- product's rank within its best line never exceeds its rank overall), with 15 × 150 link rows
    -- to group instead of every link of those lines (7,300 at 10,000 products).
    SELECT lp.product_id AS id
    FROM (
        SELECT id, greatest(similarity, 0) + 0.5 * coverage AS score
        FROM mapping_scored ORDER BY score DESC, id LIMIT {WIJZER_MAPPINGS}
    ) best
    CROSS JOIN LATERAL (
        SELECT mp.product_id FROM guidelines_interventionmapping_products mp
        WHERE mp.interventionmapping_id = best.id ORDER BY mp.product_id LIMIT {WIJZER_SHORTLIST}
    ) lp
    GROUP BY lp.product_id
    ORDER BY max(best.score) DESC, lp.product_id
    LIMIT {WIJZER_SHORTLIST}
),
candidate_ids AS MATERIALIZED (
    SELECT id FROM vector UNION SELECT id FROM lexical UNION SELECT id FROM wijzer_route
),
wijzer AS (
    -- Per candidate through the link table's product index: a hash join read all links (23,000 at 10,000 products).
    SELECT c.id, w.similarity, w.lexical, w.coverage
    FROM candidate_ids c
    CROSS JOIN LATERAL (
        SELECT max(ms.similarity) AS similarity, max(ms.lexical) AS lexical, max(ms.coverage) AS coverage
        FROM guidelines_interventionmapping_products mp
        JOIN mapping_scored ms ON ms.id = mp.interventionmapping_id
        WHERE mp.product_id = c.id
    ) w
    WHERE w.similarity IS NOT NULL
)
SELECT p.id, p.name,
       CASE WHEN p.embedding_model = %(model)s THEN {COMMON_SIMILARITY.format(column="p.embedding")} ELSE 0 END AS similarity,
       coalesce(l.score, 0) AS lexical,
       coalesce(l.matched_terms, 0) AS matched_terms,
       coalesce(l.coverage, 0) AS coverage,
       coalesce(w.similarity, 0) AS wijzer_similarity,
       coalesce(w.lexical, 0) AS wijzer_lexical,
       coalesce(w.coverage, 0) AS wijzer_coverage
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
    coverage: float
    wijzer_similarity: float
    wijzer_lexical: float
    wijzer_coverage: float
    fused: float = 0.0
    name: str = ""
    matchable_coverage: float = 0.0  # coverage of the query words some product contains (lexical.sql.matchable_share)
    widened: bool = False  # found only by a rewrite of a weak query; its scores answer that rewrite

    @property
    def wijzer(self) -> float:
        """How strongly an interventiewijzer line that points to this product matches the situation."""
        return max(0.0, self.wijzer_similarity) + 0.5 * self.wijzer_coverage


def candidates_fetch(*, terms: QueryTerms, query: QueryEmbedding, limit: int) -> list[Candidate]:
    """All products any of the three routes found, with their raw scores (not yet floored or fused);
    similarities on the common scale (embeddings.selectors), 0 for a row without a vector of this model."""
    params = {
        **terms.params(), **query.params(), "limit": limit,
        **bm25_params("lexical", terms=terms, **PRODUCTS), **bm25_params("mapping_lexical", terms=terms, **MAPPINGS),
    }
    with server_bound_cursor() as cursor:
        cursor.execute(_SQL, params)
        rows = cursor.fetchall()
    share = matchable_share("lexical", terms=terms, params=params)
    return [
        Candidate(
            int(r[0]), float(r[2]), float(r[3]), int(r[4]), float(r[5]), float(r[6]), float(r[7]), float(r[8]), name=r[1],
            matchable_coverage=min(1.0, float(r[5]) / share) if share else 0.0,
        )
        for r in rows
    ]


def fuse(candidates: list[Candidate], *, method: str) -> list[Candidate]:
    """Order candidates by RRF (k=60) over the three lists, or by a weighted blend of normalised scores."""
    if not candidates:
        return []
    if method == "rrf":
        rankings = [
            [c.product_id for c in sorted((c for c in candidates if _signal(c, key) > 0), key=lambda c: _signal(c, key), reverse=True)]
            for key in ("similarity", "lexical", "wijzer")
        ]
        fused = reciprocal_rank_fusion(rankings)
        for candidate in candidates:
            candidate.fused = fused.get(candidate.product_id, 0.0)
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
