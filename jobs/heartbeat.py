"""Each Celery worker says it is alive in Redis every few seconds, so /health/ can tell how long ago
a worker last did (a worker that hangs or died stops refreshing, and its key expires)."""

import logging
import threading
import time

from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "evi:worker-heartbeat:"
INTERVAL_S = 15
EXPIRES_S = 120


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5)


def heartbeat_start(hostname: str) -> threading.Thread:
    """Refresh this worker's key until the process ends (a daemon thread)."""

    def beat() -> None:
        while True:
            try:
                _redis().set(KEY_PREFIX + hostname, time.time(), ex=EXPIRES_S)
            except Exception as error:  # Redis away: the key expires, /health/ says so
                logger.warning("worker heartbeat not written: %s", error)
            time.sleep(INTERVAL_S)

    thread = threading.Thread(target=beat, name="evi-heartbeat", daemon=True)
    thread.start()
    return thread


def worker_heartbeat_age() -> float | None:
    """Seconds since the freshest worker heartbeat; None when no worker has beaten recently."""
    client = _redis()
    values = [client.get(key) for key in client.scan_iter(KEY_PREFIX + "*", count=100)]
    stamps = [float(value) for value in values if value is not None]
    return round(time.time() - max(stamps), 1) if stamps else None
