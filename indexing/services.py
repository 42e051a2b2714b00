"""Keep the search indexes (embeddings and full-text vectors) of products, mappings and chunks current.

Every refresh is idempotent: a row whose source text (and model) is unchanged is skipped, and a
row is only overwritten with vectors computed from what it holds now, so two workers racing on
the same row write the same values. Vectors are computed with the index's active model, outside
any transaction, and written under a shared lock on the index row, so a swap to another model
(indexing.reindex) never interleaves with a write of the old one.
"""

import logging
from collections.abc import Iterable

from django.contrib.postgres.search import SearchVector
from django.db import transaction
from django.db.models import Value
from django.utils import timezone

from catalog.models import Product
from embeddings.encoder import source_hash
from embeddings.selectors import active_embedding_model
from embeddings.services import embedded_confirm, texts_embed
from guidelines.models import GuidelineChunk, InterventionMapping
from indexing.texts import (
    chunk_embedding_text,
    mapping_embedding_text,
    product_embedding_text,
)
from lexical.terms import index_terms
from lexical.vocabulary import vocabulary_clear

logger = logging.getLogger(__name__)


def product_index_refresh(*, product_ids: Iterable[int] | None = None, force: bool = False) -> int:
    """Recompute full-text vectors, and embeddings where their source changed, of the given (default: all)
    products; returns how many embeddings changed."""
    vocabulary_clear()
    products = Product.objects.prefetch_related("intervention_mappings").order_by("id")
    if product_ids is not None:
        products = products.filter(id__in=list(product_ids))
    products = list(products)
    model = active_embedding_model()
    texts = {product.id: product_embedding_text(product) for product in products}
    stale = [
        product for product in products
        if force or product.embedding is None or product.embedding_source_hash != source_hash(texts[product.id], model=model)
    ]
    stale_texts = [texts[product.id] for product in stale]
    embedded = texts_embed(stale_texts)
    now = timezone.now()
    with transaction.atomic():
        embedded = embedded_confirm(embedded, stale_texts)
        for product in products:
            Product.objects.filter(id=product.id).update(search_vector=_product_search_vector(product))
        for product, text, vector in zip(stale, stale_texts, embedded.vectors, strict=True):
            Product.objects.filter(id=product.id).update(
                embedding=vector.tolist(),
                embedding_model=embedded.model,
                embedding_source_hash=source_hash(text, model=embedded.model),
                embedded_at=now,
            )
    if stale:
        logger.info("refreshed the embeddings of %d product(s)", len(stale))
    return len(stale)


def _product_search_vector(product: Product):
    mappings = list(product.intervention_mappings.all())
    tags = " ".join(product.problem_areas + [kw for m in mappings for kw in m.keywords] + [m.intervention_type for m in mappings])
    body = " ".join([product.description] + [m.problem_statement for m in mappings])
    return (
        SearchVector(Value(product.name), weight="A", config="dutch")
        + SearchVector(Value(f"{tags} {index_terms(product.name, tags)}"), weight="B", config="dutch")
        + SearchVector(Value(f"{body} {index_terms(body)}"), weight="C", config="dutch")
    )


def mapping_index_refresh(*, mapping_ids: Iterable[int] | None = None, only_missing: bool = False) -> int:
    """Recompute embedding and full-text vector of wijzer mappings; returns how many were written."""
    mappings = InterventionMapping.objects.order_by("id")
    if mapping_ids is not None:
        mappings = mappings.filter(id__in=list(mapping_ids))
    if only_missing:
        mappings = mappings.filter(embedding__isnull=True)
    mappings = list(mappings)
    vocabulary_clear()
    texts = [mapping_embedding_text(m) for m in mappings]
    embedded = texts_embed(texts)
    with transaction.atomic():
        embedded = embedded_confirm(embedded, texts)
        for mapping, text, vector in zip(mappings, texts, embedded.vectors, strict=True):
            InterventionMapping.objects.filter(id=mapping.id).update(
                embedding=vector.tolist(),
                embedding_model=embedded.model,
                search_vector=SearchVector(Value(f"{text} {index_terms(text)}"), config="dutch"),
            )
    return len(mappings)


def chunk_embeddings_refresh(*, chunk_ids: Iterable[int] | None = None, document_id: int | None = None, only_missing: bool = False, batch_size: int = 64) -> int:
    """Embed guideline chunks (by id or by document); returns how many were written."""
    chunks = GuidelineChunk.objects.order_by("id")
    if chunk_ids is not None:
        chunks = chunks.filter(id__in=list(chunk_ids))
    if document_id is not None:
        chunks = chunks.filter(document_id=document_id)
    if only_missing:
        chunks = chunks.filter(embedding__isnull=True)
    chunks = list(chunks.select_related("document").only("id", "section_path", "content", "document__title"))
    written = 0
    for start in range(0, len(chunks), batch_size):
        batch = chunks[start : start + batch_size]
        texts = [chunk_embedding_text(c) for c in batch]
        embedded = texts_embed(texts)
        with transaction.atomic():
            embedded = embedded_confirm(embedded, texts)
            for chunk, vector in zip(batch, embedded.vectors, strict=True):
                chunk.embedding, chunk.embedding_model = vector.tolist(), embedded.model
            GuidelineChunk.objects.bulk_update(batch, ["embedding", "embedding_model"])
        written += len(batch)
    return written
