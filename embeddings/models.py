"""Which embedding model the search reads, and the vectors of a re-index toward another model."""

from django.db import models
from pgvector.django import VectorField

from embeddings.constants import EMBEDDING_DIMENSIONS


class EmbeddingIndex(models.Model):
    """The single row (id 1) that says which model every stored vector comes from.

    A re-index writes its vectors aside (StagedEmbedding) while the search keeps reading the active
    model; the swap to the new model is one transaction, so a search never compares two models.
    """

    SINGLETON_ID = 1

    active_model = models.CharField("actief model", max_length=100)
    target_model = models.CharField("doelmodel (herindexering)", max_length=100, blank=True)
    total = models.PositiveIntegerField("te indexeren", default=0)
    done = models.PositiveIntegerField("geïndexeerd", default=0)
    started_at = models.DateTimeField("gestart", null=True, blank=True)
    updated_at = models.DateTimeField("bijgewerkt", auto_now=True)
    finished_at = models.DateTimeField("klaar", null=True, blank=True)
    error = models.TextField("fout", blank=True)

    class Meta:
        verbose_name = "zoekindex"
        verbose_name_plural = "zoekindex"
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="embedding_index_singleton")]

    def __str__(self) -> str:
        return self.active_model


class StagedEmbedding(models.Model):
    """A vector computed by a running re-index; moved into its row by the swap, then deleted."""

    class Kind(models.TextChoices):
        PRODUCT = "product"
        MAPPING = "mapping"
        CHUNK = "chunk"

    model = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    object_id = models.BigIntegerField()
    source_hash = models.CharField(max_length=64)
    vector = VectorField(dimensions=EMBEDDING_DIMENSIONS)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["model", "kind", "object_id"], name="staged_embedding_unique")]
