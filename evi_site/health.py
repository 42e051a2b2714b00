"""GET /health/ for load balancers: 200 when the database answers, 503 otherwise; no personal data.

Redis, the workers and the embedding model are reported but do not make it 503: without them the
site still searches (docs/celery.md, "noodmodus"), so a load balancer should keep sending traffic.
"""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from search.health import health_check


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = health_check()
    if not report.database_ok:
        return JsonResponse({"status": "unavailable", "database": "unavailable"}, status=503)
    index = report.index
    return JsonResponse({
        "status": "ok",
        "database": "ok",
        "redis": "ok" if report.redis_ok else "unavailable",
        "worker": {"last_heartbeat_s": report.worker_heartbeat_s},
        "embedding_model": index.active_model,
        "embedding_model_loaded": report.model_loaded,
        "reindexing": {"target": index.target_model, "done": index.done, "total": index.total} if index.reindexing else None,
    })
