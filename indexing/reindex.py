"""Move the whole index to another embedding model while the search keeps reading the current one.

Vectors of the new model are staged aside (StagedEmbedding), a batch at a time, so a run that is
stopped resumes where it was. The swap writes them into the rows and names the new model active
in one transaction, under an exclusive lock on the index row that every index write shares
(embeddings.services.embedded_confirm): a search therefore sees either all old or all new vectors.
Rows added or edited during the run are caught up before and under that lock.
"""

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from catalog.models import Product
from embeddings.encoder import embed_documents, source_hash
from embeddings.models import EmbeddingIndex, StagedEmbedding
from embeddings.selectors import IndexStatus, active_embedding_model, index_status
from guidelines.models import GuidelineChunk, InterventionMapping
from indexing.texts import (
    chunk_embedding_text,
    mapping_embedding_text,
    product_embedding_text,
)

logger = logging.getLogger(__name__)

BATCH_SIZE = 32
# A run whose progress is older than this is taken to be dead (a killed worker), and may be resumed.
STALE_RUN = timedelta(minutes=3)


@dataclass(frozen=True)
class Collection:
    kind: str
    table: str
    rows: Callable[[], object]
    text: Callable[[object], str]


COLLECTIONS = (
    Collection(StagedEmbedding.Kind.PRODUCT, "catalog_product", lambda: Product.objects.prefetch_related("intervention_mappings"), product_embedding_text),
    Collection(StagedEmbedding.Kind.MAPPING, "guidelines_interventionmapping", lambda: InterventionMapping.objects.all(), mapping_embedding_text),
    Collection(StagedEmbedding.Kind.CHUNK, "guidelines_guidelinechunk", lambda: GuidelineChunk.objects.select_related("document"), chunk_embedding_text),
)


class ReindexBusyError(Exception):
    """Another process is re-indexing toward this model right now."""


def reindex_run(*, model: str, progress: Callable[[IndexStatus], None] | None = None) -> IndexStatus:
    """Stage every row's vector in `model`, then swap; a no-op when `model` is active already."""
    if reindex_start(model=model):
        while not reindex_advance(model=model, seconds=5.0):
            if progress:
                progress(index_status())
        reindex_finish(model=model)
    status = index_status()
    if progress:
        progress(status)
    return status


def reindex_advance(*, model: str, seconds: float) -> bool:
    """Stage batches for about `seconds`; True when every row has its vector (or the run was called off)."""
    deadline = time.monotonic() + seconds
    with _error_recorded(model):
        while time.monotonic() < deadline:
            if not EmbeddingIndex.objects.filter(id=EmbeddingIndex.SINGLETON_ID, target_model=model).exists():
                return True
            if not reindex_step(model=model):
                return True
    return False


def reindex_start(*, model: str) -> bool:
    """Claim the run toward `model`; False when there is nothing to do."""
    with transaction.atomic():
        index, _ = EmbeddingIndex.objects.select_for_update().get_or_create(
            id=EmbeddingIndex.SINGLETON_ID, defaults={"active_model": active_embedding_model()}
        )
        if index.active_model == model and not index.target_model:
            return False
        if index.target_model == model and not index.error and timezone.now() - index.updated_at < STALE_RUN and index.started_at and not index.finished_at:
            raise ReindexBusyError(f"a re-index toward {model} is already running (last progress {index.updated_at:%H:%M:%S})")
        StagedEmbedding.objects.exclude(model=model).delete()
        if index.target_model != model or not index.started_at:
            index.started_at = timezone.now()
        index.target_model, index.error, index.finished_at = model, "", None
        index.total = _row_count()
        index.done = StagedEmbedding.objects.filter(model=model).count()
        index.save()
    logger.info("re-indexing %d rows with %s (%d staged already)", index.total, model, index.done)
    return True


def reindex_step(*, model: str, batch_size: int = BATCH_SIZE) -> int:
    """Stage the next batch of rows that have no vector of `model` yet; returns how many (0: all staged)."""
    for collection in COLLECTIONS:
        pending = list(collection.rows().exclude(id__in=_staged_ids(collection.kind, model)).order_by("id")[:batch_size])
        if pending:
            _stage(collection, pending, model)
            EmbeddingIndex.objects.filter(id=EmbeddingIndex.SINGLETON_ID).update(
                done=StagedEmbedding.objects.filter(model=model).count(), total=_row_count(), updated_at=timezone.now()
            )
            return len(pending)
    return 0


def reindex_finish(*, model: str) -> None:
    """Catch up rows edited or added meanwhile, then swap every row to `model` in one transaction."""
    with _error_recorded(model):
        _finish(model)
    # The judged questions' vectors serve one feature of the guideline answer and are no search results: they
    # follow the swap rather than block it, and the feature weighs nothing until they have (question_votes).
    from search.question_embeddings import reference_question_embeddings_refresh

    reference_question_embeddings_refresh()


@contextmanager
def _error_recorded(model: str):
    """A failed run shows why in the admin and the command's status, then fails loudly."""
    try:
        yield
    except Exception as error:
        EmbeddingIndex.objects.filter(id=EmbeddingIndex.SINGLETON_ID, target_model=model).update(error=f"{type(error).__name__}: {error}"[:2000])
        raise


def _finish(model: str) -> None:
    for collection in COLLECTIONS:
        for stale in _batched(_stale_rows(collection, model)):
            _stage(collection, stale, model)
    with transaction.atomic():
        index = EmbeddingIndex.objects.select_for_update().get(id=EmbeddingIndex.SINGLETON_ID)
        if index.target_model != model:
            return
        for collection in COLLECTIONS:
            for stale in _batched(_stale_rows(collection, model)):
                _stage(collection, stale, model)
            _swap(collection, model)
        StagedEmbedding.objects.all().delete()
        index.active_model, index.target_model, index.error = model, "", ""
        index.finished_at = timezone.now()
        index.total = index.done = _row_count()
        index.save()
    logger.info("the search index now uses %s", model)


def _stage(collection: Collection, rows: list, model: str) -> None:
    texts = [collection.text(row) for row in rows]
    vectors = embed_documents(texts, model=model)
    for row, text, vector in zip(rows, texts, vectors, strict=True):
        StagedEmbedding.objects.update_or_create(
            model=model, kind=collection.kind, object_id=row.id,
            defaults={"source_hash": source_hash(text, model=model), "vector": vector.tolist()},
        )


def _stale_rows(collection: Collection, model: str) -> Iterator:
    """Rows with no staged vector, or whose text changed after theirs was staged."""
    staged = dict(StagedEmbedding.objects.filter(model=model, kind=collection.kind).values_list("object_id", "source_hash"))
    for row in collection.rows().order_by("id").iterator(chunk_size=500):
        if staged.get(row.id) != source_hash(collection.text(row), model=model):
            yield row


def _batched(rows: Iterator, size: int = BATCH_SIZE) -> Iterator[list]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _swap(collection: Collection, model: str) -> None:
    extra = ", embedding_source_hash = s.source_hash, embedded_at = now()" if collection.kind == StagedEmbedding.Kind.PRODUCT else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""UPDATE {collection.table} t SET embedding = s.vector, embedding_model = s.model{extra}
                FROM embeddings_stagedembedding s
                WHERE s.kind = %s AND s.model = %s AND s.object_id = t.id""",
            [collection.kind, model],
        )


def _staged_ids(kind: str, model: str):
    return StagedEmbedding.objects.filter(model=model, kind=kind).values("object_id")


def _row_count() -> int:
    return sum(collection.rows().count() for collection in COLLECTIONS)
