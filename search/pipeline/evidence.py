"""Guideline evidence: which chunks back a product in this situation (stage 2 input and stage 3 citations).

Only passages on the product's subject may back it: from the guideline documents an admin linked to
the product (a product marked "richtlijnen gecureerd" without links cites nothing), or, for a product
without links, from documents whose title and summary name its problems, or from sections whose
heading does. A passage of an unrelated guideline that happens to
lie close in meaning is never cited: no citation is better than a wrong one.

Among those, a chunk is scored against the sum of the product's and the situation's embeddings;
cosine distance ignores length, so the sum is the same as the normalised blend. One SQL statement
fetches the nearest chunks for every product at once, through the HNSW index.
"""

from django.db import transaction
from django.utils import timezone

from embeddings.cursor import server_bound_cursor
from embeddings.selectors import QueryEmbedding
from lexical.sql import MIN_TOPIC_LEXEME_LENGTH
from search.pipeline.ranking.parameters import DEFAULT, RankingParameters
from search.pipeline.types import CitedChunk

_SQL = f"""
WITH documents AS MATERIALIZED (
    SELECT id, title, source, url, is_summary, topic_vector AS topic
    FROM guidelines_guidelinedocument
),
links AS MATERIALIZED (
    SELECT product_id, array_agg(guidelinedocument_id) AS documents
    FROM guidelines_guidelinedocument_products WHERE product_id = ANY(%(ids)s) GROUP BY product_id
)
SELECT p.id, ch.id, (1 - n.distance - %(sim_offset)s) * %(sim_scale)s, d.title, d.source, ch.section_path, d.url, ch.content, ch.article, d.is_summary,
       coalesce(ts_rank(ch.search_vector, terms.query, 1), 0) AS lexical,
       d.topic @@ terms.query AS document_match
FROM catalog_product p
LEFT JOIN links l ON l.product_id = p.id
CROSS JOIN LATERAL (
    SELECT to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme) || ':*', ' | '), '')) AS query,
           to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme) || ':*A', ' | '), '')) AS headings
    FROM unnest(to_tsvector('dutch', p.name || ' ' || array_to_string(p.problem_areas, ' '))) WHERE length(lexeme) >= {MIN_TOPIC_LEXEME_LENGTH}
) terms
CROSS JOIN LATERAL (
    (SELECT c.id, c.embedding <=> (p.embedding + %(vec)s::vector) AS distance
     FROM guidelines_guidelinechunk c
     WHERE (l.documents IS NOT NULL OR p.guidelines_curated)
       AND c.document_id = ANY(coalesce(l.documents, '{{}}')) AND c.embedding_model = %(model)s
     ORDER BY c.embedding <=> (p.embedding + %(vec)s::vector) LIMIT %(per_product)s)
    UNION ALL
    (SELECT c.id, c.embedding <=> (p.embedding + %(vec)s::vector) AS distance
     FROM guidelines_guidelinechunk c
     WHERE NOT (l.documents IS NOT NULL OR p.guidelines_curated) AND c.embedding_model = %(model)s
       AND (c.document_id IN (SELECT id FROM documents WHERE topic @@ terms.query) OR c.search_vector @@ terms.headings)
     ORDER BY c.embedding <=> (p.embedding + %(vec)s::vector) LIMIT %(per_product)s)
) n
JOIN guidelines_guidelinechunk ch ON ch.id = n.id
JOIN documents d ON d.id = ch.document_id
WHERE p.id = ANY(%(ids)s) AND p.embedding_model = %(model)s
ORDER BY p.id, n.distance
"""

def evidence_for_products(*, product_ids: list[int], embedding: QueryEmbedding, per_product: int = 6) -> dict[int, list[CitedChunk]]:
    if not product_ids:
        return {}
    # On a small corpus the planner prefers a scan that detoasts every 2 KB vector once per
    # product (~60 ms); the HNSW index answers the same lateral lookups in ~3 ms.
    with transaction.atomic(), server_bound_cursor() as cursor:
        # The subject filter would leave an HNSW scan with fewer than `per_product` rows; let it go on.
        # Both settings in one statement (SET takes one each): a round trip fewer per search.
        cursor.execute("SELECT set_config('enable_seqscan', 'off', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        cursor.execute(_SQL, {"ids": product_ids, **embedding.params(), "per_product": per_product})
        rows = cursor.fetchall()
    evidence: dict[int, list[CitedChunk]] = {}
    read_at = timezone.now()
    for product_id, chunk_id, similarity, title, source, section, url, content, article, is_summary, lexical, document_match in rows:
        score = citation_score(similarity, lexical, document_match)
        evidence.setdefault(product_id, []).append(
            CitedChunk(chunk_id, title, source, section, url, score, content, article, is_summary, retrieved_at=read_at)
        )
    for chunks in evidence.values():
        chunks.sort(key=lambda chunk: chunk.score, reverse=True)
    return evidence


def citation_score(similarity: float, lexical: float, document_match: bool, p: RankingParameters = DEFAULT) -> float:
    """Meaning (cosine to product + situation), plus bonuses when the passage, or the guideline it belongs to
    (title and summary), names the product's own problems: a burn-out track belongs with the burn-out guideline."""
    bonus = p.citation_lexical_bonus * min(float(lexical) / p.citation_lexical_saturation, 1.0)
    bonus += p.citation_document_bonus if document_match else 0.0
    return round(float(similarity) + bonus, 4)


def choose_citations(chunks: list[CitedChunk], *, threshold: float, limit: int = 2, p: RankingParameters = DEFAULT) -> list[CitedChunk]:
    """The best 1–2 chunks above the threshold, from different documents where possible; none if none qualify."""
    qualifying = [chunk for chunk in chunks if chunk.score >= threshold]
    chosen: list[CitedChunk] = []
    for chunk in qualifying:
        if len(chosen) < limit and all(chunk.document_title != c.document_title for c in chosen):
            chosen.append(chunk)
    for chunk in qualifying:
        if len(chosen) < limit and chunk not in chosen and chunk.score >= threshold + p.second_citation_margin:
            chosen.append(chunk)
    return chosen
