"""The Celery application: Redis broker, JSON only, tasks discovered in every app, and the beat schedule.

Settings (CELERY_* in evi_site/settings.py) carry broker, serialisation, acknowledgement and time
limits; this module adds what needs Celery objects: the schedule and the shared retry policy.
"""

import os

from celery import Celery
from celery.schedules import crontab
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evi_site.settings")

app = Celery("evi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    "validate-product-urls-nightly": {
        "task": "catalog.tasks.validate_all_product_urls",
        "schedule": crontab(hour=3, minute=15),
    },
    "recheck-broken-product-urls-weekly": {
        "task": "catalog.tasks.recheck_broken_product_urls",
        "schedule": crontab(hour=4, minute=15, day_of_week="sunday"),
    },
}

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
