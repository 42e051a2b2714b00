"""Celery tasks that keep search indexes current after edits; each takes ids and is idempotent."""

from celery import shared_task

from embeddings import services


@shared_task(acks_late=True, autoretry_for=(ConnectionError, TimeoutError), retry_backoff=True, retry_jitter=True, max_retries=5)
def refresh_product_index(product_id: int) -> int:
    return services.product_index_refresh(product_ids=[product_id])


@shared_task(acks_late=True, autoretry_for=(ConnectionError, TimeoutError), retry_backoff=True, retry_jitter=True, max_retries=5)
def refresh_mapping_index(mapping_id: int) -> int:
    """A wijzer line feeds its products' embedding text, so those are refreshed too."""
    from guidelines.models import InterventionMapping

    services.mapping_index_refresh(mapping_ids=[mapping_id])
    product_ids = list(InterventionMapping.products.through.objects.filter(interventionmapping_id=mapping_id).values_list("product_id", flat=True))
    return services.product_index_refresh(product_ids=product_ids)


@shared_task(acks_late=True, autoretry_for=(ConnectionError, TimeoutError), retry_backoff=True, retry_jitter=True, max_retries=5)
def refresh_chunk_embedding(chunk_id: int) -> int:
    return services.chunk_embeddings_refresh(chunk_ids=[chunk_id])


@shared_task(acks_late=True, autoretry_for=(ConnectionError, TimeoutError), retry_backoff=True, retry_jitter=True, max_retries=5)
def refresh_products_index(product_ids: list[int], force: bool = False) -> int:
    return services.product_index_refresh(product_ids=product_ids, force=force)
