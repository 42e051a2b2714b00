"""Celery tasks that keep search indexes current after edits; each takes ids and is idempotent."""

from celery import shared_task

from indexing import reindex, services
from jobs.queue import enqueue
from jobs.retry import RETRY_POLICY


@shared_task(**RETRY_POLICY)
def refresh_product_index(product_id: int) -> int:
    return services.product_index_refresh(product_ids=[product_id])


@shared_task(**RETRY_POLICY)
def refresh_mapping_index(mapping_id: int) -> int:
    """A wijzer line feeds its products' embedding text, so those are refreshed too."""
    from guidelines.models import InterventionMapping

    services.mapping_index_refresh(mapping_ids=[mapping_id])
    product_ids = list(InterventionMapping.products.through.objects.filter(interventionmapping_id=mapping_id).values_list("product_id", flat=True))
    return services.product_index_refresh(product_ids=product_ids)


@shared_task(**RETRY_POLICY)
def refresh_chunk_embedding(chunk_id: int) -> int:
    return services.chunk_embeddings_refresh(chunk_ids=[chunk_id])


@shared_task(**RETRY_POLICY)
def refresh_products_index(product_ids: list[int], force: bool = False) -> int:
    return services.product_index_refresh(product_ids=product_ids, force=force)


# A re-index runs in slices of ~30 s that each enqueue the next, so progress survives a killed worker
# (acks_late: the slice runs again, resuming from the staged vectors) and no slice nears a time limit.
# The final swap of 100k passages may take minutes, hence its own limits.
REINDEX_SLICE_S = 30.0


@shared_task(bind=True, acks_late=True, soft_time_limit=1800, time_limit=1900)
def reindex_embeddings(self, model: str, continued: bool = False) -> str:
    try:
        if not continued and not reindex.reindex_start(model=model):
            return "unchanged"
    except reindex.ReindexBusyError as busy:
        return f"busy: {busy}"
    while not reindex.reindex_advance(model=model, seconds=REINDEX_SLICE_S):
        if not self.request.is_eager:  # run here (broker down, tests) means: no queue to hand over to
            enqueue(reindex_embeddings, model, True)
            return "continuing"
    reindex.reindex_finish(model=model)
    return "done"
