"""The system's health read in-process: the one check behind GET /health/ and the chat's /health."""

import logging
from dataclasses import dataclass

from django.db import DatabaseError, connection

from embeddings.encoder import model_loaded
from embeddings.selectors import IndexStatus, index_status
from jobs.heartbeat import worker_heartbeat_age
from jobs.queue import broker_available

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class HealthReport:
    database_ok: bool
    redis_ok: bool
    worker_heartbeat_s: float | None
    index: IndexStatus | None  # None when the database did not answer
    model_loaded: bool


def health_check() -> HealthReport:
    """Database, Redis, workers and the embedding model, as /health/ reports them."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        index = index_status()
    except DatabaseError as error:
        logger.error("health check: database unavailable: %s", error)
        index = None
    redis_ok = broker_available()
    return HealthReport(
        database_ok=index is not None,
        redis_ok=redis_ok,
        worker_heartbeat_s=worker_heartbeat_age() if redis_ok else None,
        index=index,
        model_loaded=model_loaded(index.active_model) if index else False,
    )
