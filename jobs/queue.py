"""Enqueue Celery tasks after commit, and keep working when the broker is down.

Degraded mode (decided for issue 5): if Redis cannot take the message, the task runs eagerly in
the calling process, and the failure is logged loudly. An admin save therefore never fails and
never loses its follow-up work; it only gets slower while the broker is away.
"""

import logging
import time

from celery.result import AsyncResult
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

BROKER_CHECK_TTL_S = 10.0
_last_broker_check: tuple[float, bool] | None = None


def enqueue_on_commit(task, *args, run_here_if_broker_down: bool = True) -> None:
    transaction.on_commit(lambda: enqueue(task, *args, run_here_if_broker_down=run_here_if_broker_down))


def enqueue(task, *args, run_here_if_broker_down: bool = True) -> AsyncResult | None:
    """Queue the task; returns its result handle (an EagerResult when it had to run here and now).

    With the broker down the task runs here, unless the caller says it may not wait for it (a link
    check waits on someone else's server): then it is left to a later run and None is returned.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return task.apply(args=args)
    try:
        # A connection of its own to the broker the settings name now, not one from Celery's pool:
        # a broker that went away is noticed on this message, and a changed setting takes effect.
        with task.app.connection_for_write(settings.CELERY_BROKER_URL) as connection:
            return task.apply_async(args=args, retry=False, connection=connection)
    except Exception as error:  # kombu/redis raise several connection error types
        _remember_broker_state(False)
        if not run_here_if_broker_down:
            logger.error("Broker unavailable (%s); %s%r is left for a later run", error, task.name, args)
            return None
        logger.error("Broker unavailable (%s); running %s%r eagerly in this process", error, task.name, args)
        return task.apply(args=args)


def broker_available() -> bool:
    """True when Redis answers a PING; cached for a few seconds so admin pages stay fast."""
    global _last_broker_check
    now = time.monotonic()
    if _last_broker_check and now - _last_broker_check[0] < BROKER_CHECK_TTL_S:
        return _last_broker_check[1]
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5).ping()
        ok = True
    except redis.RedisError:
        ok = False
        logger.error("Redis at %s is unreachable: background jobs are not running", settings.REDIS_URL)
    _remember_broker_state(ok)
    return ok


def _remember_broker_state(ok: bool) -> None:
    global _last_broker_check
    _last_broker_check = (time.monotonic(), ok)


def broker_check_forget() -> None:
    """The next broker_available() asks Redis again instead of answering from its cache."""
    global _last_broker_check
    _last_broker_check = None
