"""Reads of the embedding index: which model is active, a query's vector in it, and re-index progress."""

import functools
from dataclasses import dataclass

import numpy as np

from embeddings.encoder import E5_MODEL, bootstrap_model, embed_query
from embeddings.models import EmbeddingIndex

# Cosines of different models live on different scales: e5 puts almost every Dutch pair between
# 0.75 and 0.95, USE between -0.1 and 0.8. Each model's cosine is mapped affinely onto USE's scale
# (matching the two models' median and 99th percentile over judged query-product and
# query-passage pairs; `manage.py calibrate_similarity`, README), so one set of thresholds holds for all.
SIMILARITY_SCALES: dict[str, tuple[float, float]] = {E5_MODEL: (0.8019, 5.287)}
# OpenAI's embeddings were given their own thresholds before this mapping existed (floor 0.30, query
# gate 0.40, strong 0.45 against USE's 0.12, 0.15, 0.25); this map carries those over. Not re-measured
# here (no network); run calibrate_similarity where the endpoint is reachable.
OPENAI_SCALE = (0.16, 0.87)


# The mapping, applied inside SQL wherever a similarity is read (parameters from QueryEmbedding.params).
COMMON_SIMILARITY = "((1 - ({column} <=> %(vec)s::vector)) - %(sim_offset)s) * %(sim_scale)s"


def active_embedding_model() -> str:
    """The model all stored vectors come from (an empty index starts with the bootstrap model)."""
    model = EmbeddingIndex.objects.filter(id=EmbeddingIndex.SINGLETON_ID).values_list("active_model", flat=True).first()
    return model or bootstrap_model()


def similarity_scale(model: str) -> tuple[float, float]:
    """(offset, scale) with common = (cosine − offset) · scale; USE is the reference."""
    if model.startswith("openai-"):
        return OPENAI_SCALE
    return SIMILARITY_SCALES.get(model, (0.0, 1.0))


@dataclass(frozen=True)
class QueryEmbedding:
    """A query's vector and the model it was computed with; SQL compares it only with rows of that model."""

    vector: np.ndarray
    model: str

    def params(self) -> dict[str, str | float]:
        offset, scale = similarity_scale(self.model)
        return {"vec": self.literal, "model": self.model, "sim_offset": offset, "sim_scale": scale}

    @functools.cached_property
    def literal(self) -> str:
        """The vector as SQL text, formatted once: stage 1 and the evidence query both send it."""
        return vector_literal(self.vector)

    def blended(self, others: list[np.ndarray]) -> "QueryEmbedding":
        """The normalised sum of this vector and others of the same model (wijzer and HyDE expansion)."""
        total = np.sum([self.vector, *others], axis=0)
        return QueryEmbedding((total / (np.linalg.norm(total) or 1.0)).astype(np.float32), self.model)


def query_embedding(text: str, *, model: str | None = None) -> QueryEmbedding:
    model = model or active_embedding_model()
    return QueryEmbedding(embed_query(text, model=model), model)


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form of a vector, for raw SQL parameters."""
    return "[" + ",".join(map("{:.6f}".format, vector.tolist())) + "]"


@dataclass(frozen=True)
class IndexStatus:
    active_model: str
    target_model: str
    done: int
    total: int
    error: str

    @property
    def reindexing(self) -> bool:
        return bool(self.target_model)

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0


def index_status() -> IndexStatus:
    row = EmbeddingIndex.objects.filter(id=EmbeddingIndex.SINGLETON_ID).first()
    if row is None:
        return IndexStatus(bootstrap_model(), "", 0, 0, "")
    return IndexStatus(row.active_model, row.target_model, row.done, row.total, row.error)
