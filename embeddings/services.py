"""Embed texts with the index's active model, and confirm inside the writing transaction that the
model did not change meanwhile, so no row is ever written with vectors of a model the index left.
"""

import logging
from dataclasses import dataclass

import numpy as np
from django.db import connection

from embeddings.encoder import bootstrap_model, embed_documents, embed_queries
from embeddings.models import EmbeddingIndex
from embeddings.selectors import active_embedding_model

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Embedded:
    model: str
    vectors: np.ndarray
    queries: bool = False  # embedded as queries (to compare with other queries), not as passages


def texts_embed(texts: list[str], *, queries: bool = False) -> Embedded:
    """Embed with the active model (call outside a transaction: the model may run for a while)."""
    model = active_embedding_model()
    return Embedded(model, _embed(texts, model=model, queries=queries), queries)


def _embed(texts: list[str], *, model: str, queries: bool) -> np.ndarray:
    return embed_queries(texts, model=model) if queries else embed_documents(texts, model=model)


def embedded_confirm(embedded: Embedded, texts: list[str]) -> Embedded:
    """Inside the writing transaction: hold off a model swap until commit, and re-embed if one
    happened while the vectors were computed (rare: once per re-index)."""
    EmbeddingIndex.objects.get_or_create(id=EmbeddingIndex.SINGLETON_ID, defaults={"active_model": bootstrap_model()})
    with connection.cursor() as cursor:
        cursor.execute("SELECT active_model FROM embeddings_embeddingindex WHERE id = %s FOR SHARE", [EmbeddingIndex.SINGLETON_ID])
        (model,) = cursor.fetchone()
    if model == embedded.model:
        return embedded
    logger.info("embedding model changed to %s while embedding %d text(s); embedding again", model, len(texts))
    return Embedded(model, _embed(texts, model=model, queries=embedded.queries), embedded.queries)
