"""GET /health/ for load balancers: 200 when the database answers, 503 otherwise; no personal data."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from embeddings.selectors import index_status

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
    return JsonResponse({
        "status": "ok",
        "database": "ok",
        "embedding_model": status.active_model,
        "reindexing": {"target": status.target_model, "done": status.done, "total": status.total} if status.reindexing else None,
    })
