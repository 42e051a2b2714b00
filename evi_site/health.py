"""GET /health/ for load balancers: 200 when the database answers, 503 otherwise; no personal data.

Redis, the workers and the embedding model are reported but do not make it 503: without them the
site still searches (docs/celery.md, "noodmodus"), so a load balancer should keep sending traffic.
"""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from embeddings.encoder import model_loaded
from embeddings.selectors import index_status
from jobs.heartbeat import worker_heartbeat_age
from jobs.queue import broker_available

logger = logging.getLogger(__name__)


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        status = index_status()
    except DatabaseError as error:
        logger.error("health check: database unavailable: %s", error)
        return JsonResponse({"status": "unavailable", "database": "unavailable"}, status=503)
    redis_ok = broker_available()
    return JsonResponse({
        "status": "ok",
        "database": "ok",
        "redis": "ok" if redis_ok else "unavailable",
        "worker": {"last_heartbeat_s": worker_heartbeat_age() if redis_ok else None},
        "embedding_model": status.active_model,
        "embedding_model_loaded": model_loaded(status.active_model),
        "reindexing": {"target": status.target_model, "done": status.done, "total": status.total} if status.reindexing else None,
    })
