"""Weak queries (fewer than 3 candidates above the floor): widen the query with the
interventiewijzer lines it matches or, when an LLM is configured, a HyDE description
(the rewrite steps of search.pipeline.run)."""

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from embeddings.encoder import embed_query
from embeddings.selectors import COMMON_SIMILARITY, QueryEmbedding
from lexical.sql import TERMS_CTE, bm25_cte, bm25_params
from lexical.terms import query_terms
from search.pipeline.retrieval import MAPPING_FIELDS, MAPPINGS

logger = logging.getLogger(__name__)

MAX_MAPPINGS = 3

_MAPPINGS_SQL = f"""
WITH
{TERMS_CTE},
{bm25_cte("mapping_lexical", **MAPPINGS, weights=MAPPING_FIELDS)}
SELECT m.problem_statement, m.intervention_type, m.keywords
FROM guidelines_interventionmapping m
LEFT JOIN mapping_lexical ml ON ml.id = m.id
CROSS JOIN LATERAL (SELECT {COMMON_SIMILARITY.format(column="m.embedding")} AS similarity) s
WHERE m.embedding_model = %(model)s AND (s.similarity >= %(floor)s OR ml.id IS NOT NULL)
ORDER BY s.similarity + coalesce(ml.coverage, 0) DESC
LIMIT %(limit)s
"""


@dataclass
class Expansion:
    text: str
    embedding: QueryEmbedding | None
    wijzer_used: bool = False
    hyde_used: bool = False


def matching_mappings(query: str, embedding: QueryEmbedding) -> list[tuple[str, str, list[str]]]:
    terms = query_terms(query)
    with connection.cursor() as cursor:
        cursor.execute(
            _MAPPINGS_SQL,
            {
                **terms.params(),
                **bm25_params("mapping_lexical", terms=terms, **MAPPINGS),
                **embedding.params(),
                "floor": settings.SEARCH_SIMILARITY_FLOOR * 2,
                "limit": MAX_MAPPINGS,
            },
        )
        return [(row[0], row[1], row[2]) for row in cursor.fetchall()]


def wijzer_expansion(query: str, embedding: QueryEmbedding) -> Expansion | None:
    """The query widened with the interventiewijzer lines it matches best; None when none match."""
    mappings = matching_mappings(query, embedding)
    if not mappings:
        return None
    text = " ".join([query] + [f"{statement} {kind} {' '.join(keywords)}" for statement, kind, keywords in mappings])
    return Expansion(text, embedding.blended([embed_query(text, model=embedding.model)]), wijzer_used=True)


def hyde_expansion(query: str, embedding: QueryEmbedding, *, text: str) -> Expansion | None:
    """The query's meaning widened with an LLM's hypothetical product description; None offline or on failure."""
    if not (settings.QUERY_EXPANSION_ENABLED and settings.LLM_API_KEY):
        return None
    from search.pipeline.llm_client import hypothetical_product

    description = hypothetical_product(query)
    if not description:
        return None
    return Expansion(text, embedding.blended([embed_query(description, model=embedding.model)]), hyde_used=True)
