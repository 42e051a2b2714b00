"""Keep the judged guideline questions' vectors in the index's active model (search.pipeline.question_votes).

Idempotent like the other index refreshes (indexing.services): a question whose text and model are
unchanged is skipped, and vectors are computed outside the transaction and written under the shared
lock on the index row, so a model swap never interleaves with a write of the old model.
"""

import logging

from django.db import connection, transaction

from embeddings.encoder import source_hash
from embeddings.selectors import active_embedding_model
from embeddings.services import embedded_confirm, texts_embed
from search.models import ReferenceQuestion

logger = logging.getLogger(__name__)

BATCH_SIZE = 256


def reference_question_embeddings_refresh(*, source: str | None = None) -> int:
    """Embed every judged question (of one source, or all) whose text or model changed since; returns how many were embedded."""
    model = active_embedding_model()
    questions = ReferenceQuestion.objects.order_by("id")
    if source is not None:
        questions = questions.filter(source=source)
    stale = [
        (question_id, text)
        for question_id, text, stored_hash in questions.values_list("id", "text", "embedding_source_hash")
        if stored_hash != source_hash(text, model=model)
    ]
    for start in range(0, len(stale), BATCH_SIZE):
        _embed_and_write(stale[start : start + BATCH_SIZE])
    if stale:
        logger.info("embedded %d judged guideline question(s) with %s", len(stale), model)
    return len(stale)


# One statement per batch (row by row, a demo reload spent 5 s here). Only where the text is still the one
# embedded: an edit meanwhile leaves the row stale for the next refresh.
_WRITE_SQL = f"""
UPDATE {ReferenceQuestion._meta.db_table} q
SET embedding = v.embedding::vector, embedding_model = %(model)s, embedding_source_hash = v.hash
FROM unnest(%(ids)s::bigint[], %(texts)s::text[], %(vectors)s::text[], %(hashes)s::text[]) AS v(id, text, embedding, hash)
WHERE q.id = v.id AND q.text = v.text
"""


def _embed_and_write(batch: list[tuple[int, str]]) -> None:
    texts = [text for _, text in batch]
    embedded = texts_embed(texts, queries=True)
    with transaction.atomic():
        embedded = embedded_confirm(embedded, texts)
        with connection.cursor() as cursor:
            cursor.execute(_WRITE_SQL, {
                "model": embedded.model,
                "ids": [question_id for question_id, _ in batch],
                "texts": texts,
                "vectors": _vector_literals(embedded.vectors),
                "hashes": [source_hash(text, model=embedded.model) for text in texts],
            })


def _vector_literals(vectors) -> list[str]:
    """pgvector's text form, "[0.1,…]"; 9 significant digits give every float4 back exactly (one format per row: 3x faster)."""
    row_format = "[" + ",".join(["%.9g"] * len(vectors[0])) + "]" if len(vectors) else ""
    return [row_format % tuple(row) for row in vectors.tolist()]
