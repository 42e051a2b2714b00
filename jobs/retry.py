"""The retry policy every Celery task shares (`@shared_task(**RETRY_POLICY)`)."""

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

# A dropped database connection or a Redis restart heals by itself; anything else is a bug and
# should fail loudly instead of being retried. Backoff 2, 4, 8, … s (max 5 min) with jitter, so
# a fleet of workers does not reconnect in lockstep.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError)
RETRY_POLICY = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 5,
}
