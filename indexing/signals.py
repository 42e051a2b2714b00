"""Re-index products, wijzer lines and chunks after they change, without any manual step.

The old embedding stays in place until the task has written the new one, so a product never
drops out of search while it is being re-indexed. Bulk loaders wrap their work in
`indexing_suspended()` and refresh once at the end instead of enqueueing a task per row.
"""

import hashlib

from django.db.models.signals import m2m_changed, post_save
from django.dispatch import receiver

from catalog.models import Product
from catalog.signals import product_reindex_requested
from guidelines.models import GuidelineChunk, InterventionMapping
from guidelines.signals import chunk_reembed_requested
from indexing.tasks import (
    refresh_chunk_embedding,
    refresh_mapping_index,
    refresh_product_index,
    refresh_products_index,
)
from jobs.queue import enqueue, enqueue_on_commit
from jobs.thread_flags import ThreadFlag

_suspension = ThreadFlag()
indexing_suspended = _suspension.activated
_suspended = _suspension.active


@receiver(post_save, sender=Product, dispatch_uid="indexing.product_saved")
def product_saved(sender, instance: Product, raw=False, update_fields=None, **kwargs):
    indexed_fields = {"name", "description", "problem_areas"}
    if raw or _suspended() or (update_fields is not None and not indexed_fields & set(update_fields)):
        return
    enqueue_on_commit(refresh_product_index, instance.pk)


@receiver(post_save, sender=InterventionMapping, dispatch_uid="indexing.mapping_saved")
def mapping_saved(sender, instance: InterventionMapping, raw=False, **kwargs):
    if not raw and not _suspended():
        enqueue_on_commit(refresh_mapping_index, instance.pk)


@receiver(m2m_changed, sender=InterventionMapping.products.through, dispatch_uid="indexing.mapping_products_changed")
def mapping_products_changed(sender, instance, action, pk_set=None, **kwargs):
    if _suspended() or action not in {"post_add", "post_remove", "post_clear", "pre_clear"}:
        return
    if isinstance(instance, InterventionMapping):
        if action == "pre_clear":
            removed = list(instance.products.values_list("id", flat=True))
            if removed:
                enqueue_on_commit(refresh_products_index, removed)
            return
        enqueue_on_commit(refresh_mapping_index, instance.pk)
        if pk_set:
            enqueue_on_commit(refresh_products_index, sorted(pk_set))
    elif action != "pre_clear":
        enqueue_on_commit(refresh_products_index, [instance.pk])


@receiver(post_save, sender=GuidelineChunk, dispatch_uid="indexing.chunk_saved")
def chunk_saved(sender, instance: GuidelineChunk, created=False, raw=False, **kwargs):
    """Admin edits of a passage: keep its hash honest and re-embed it (bulk_create in ingestion sends no signal)."""
    if raw or _suspended():
        return
    content_hash = hashlib.sha256(instance.content.encode()).hexdigest()
    if content_hash != instance.content_hash:
        GuidelineChunk.objects.filter(pk=instance.pk).update(content_hash=content_hash)
    enqueue_on_commit(refresh_chunk_embedding, instance.pk)


@receiver(product_reindex_requested, dispatch_uid="indexing.product_reindex_requested")
def product_reindex_requested_received(sender, product_ids: list[int], **kwargs):
    """The admin's "rebuild" action: recompute even when the source text did not change."""
    enqueue(refresh_products_index, list(product_ids), True)


@receiver(chunk_reembed_requested, dispatch_uid="indexing.chunk_reembed_requested")
def chunk_reembed_requested_received(sender, chunk_ids: list[int], **kwargs):
    for chunk_id in chunk_ids:
        enqueue(refresh_chunk_embedding, chunk_id)
