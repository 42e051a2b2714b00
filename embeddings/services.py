"""Keep the search indexes (embeddings and full-text vectors) of products, mappings and chunks current.

Every refresh is idempotent: a row whose source text (and backend) is unchanged is skipped, and a
row is only overwritten with vectors computed from what it holds now, so two workers racing on
the same row write the same values.
"""

import logging
from collections.abc import Iterable

from django.contrib.postgres.search import SearchVector
from django.db import transaction
from django.db.models import Value
from django.utils import timezone

from catalog.models import Product
from embeddings.encoder import embed_documents, source_hash
from guidelines.models import GuidelineChunk, InterventionMapping
from guidelines.services import chunk_text_for_embedding
from lexical.terms import index_terms
from lexical.vocabulary import vocabulary_clear

logger = logging.getLogger(__name__)


def product_embedding_text(product: Product) -> str:
    """Name, description, problem areas and the wijzer statements that point to the product."""
    statements = [
        f"{mapping.problem_statement} ({mapping.intervention_type})" for mapping in product.intervention_mappings.all()
    ]
    parts = [product.name, product.description, "Problemen: " + ", ".join(product.problem_areas)]
    if statements:
        parts.append("Interventiewijzer: " + " ".join(statements))
    return "\n".join(parts)


def product_index_refresh(*, product_ids: Iterable[int] | None = None, force: bool = False) -> int:
    """Recompute full-text vectors, and embeddings where their source changed, of the given (default: all)
    products; returns how many embeddings changed."""
    vocabulary_clear()
    products = Product.objects.prefetch_related("intervention_mappings").order_by("id")
    if product_ids is not None:
        products = products.filter(id__in=list(product_ids))
    products = list(products)
    stale: list[tuple[Product, str, str]] = []
    for product in products:
        text = product_embedding_text(product)
        fingerprint = source_hash(text)
        if force or product.embedding is None or product.embedding_source_hash != fingerprint:
            stale.append((product, text, fingerprint))
    vectors = embed_documents([text for _, text, _ in stale])
    now = timezone.now()
    with transaction.atomic():
        for product in products:
            Product.objects.filter(id=product.id).update(search_vector=_product_search_vector(product))
        for (product, _, fingerprint), vector in zip(stale, vectors, strict=True):
            Product.objects.filter(id=product.id).update(
                embedding=vector.tolist(), embedding_source_hash=fingerprint, embedded_at=now
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
    texts = [f"{m.problem_statement} {m.intervention_type}. {', '.join(m.keywords)}" for m in mappings]
    vectors = embed_documents(texts)
    with transaction.atomic():
        for mapping, text, vector in zip(mappings, texts, vectors, strict=True):
            InterventionMapping.objects.filter(id=mapping.id).update(
                embedding=vector.tolist(),
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
        vectors = embed_documents([chunk_text_for_embedding(c.document.title, c.section_path, c.content) for c in batch])
        for chunk, vector in zip(batch, vectors, strict=True):
            chunk.embedding = vector.tolist()
        GuidelineChunk.objects.bulk_update(batch, ["embedding"])
        written += len(batch)
    return written
