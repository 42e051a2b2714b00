"""Weak queries (fewer than 3 candidates above the floor): widen the query with the
interventiewijzer lines it matches and, when an LLM is configured, a HyDE description."""

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


def expand_weak_query(query: str, embedding: QueryEmbedding) -> Expansion:
    mappings = matching_mappings(query, embedding)
    text = query
    vectors = []
    if mappings:
        text = " ".join([query] + [f"{statement} {kind} {' '.join(keywords)}" for statement, kind, keywords in mappings])
        vectors.append(embed_query(text, model=embedding.model))
    hyde_used = False
    if settings.QUERY_EXPANSION_ENABLED and settings.LLM_API_KEY:
        from search.pipeline.llm_client import hypothetical_product

        description = hypothetical_product(query)
        if description:
            vectors.append(embed_query(description, model=embedding.model))
            hyde_used = True
    if not vectors:
        return Expansion(query, None)
    return Expansion(text, embedding.blended(vectors), wijzer_used=bool(mappings), hyde_used=hyde_used)
