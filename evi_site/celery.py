"""The Celery application: Redis broker, JSON only, tasks discovered in every app, and the beat schedule.

Settings (CELERY_* in evi_site/settings.py) carry broker, serialisation, acknowledgement and time
limits; this module adds the schedule. The retry policy every task shares is jobs.retry's.
"""

import os

from celery import Celery
from celery.schedules import crontab
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evi_site.settings")

app = Celery("evi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def start_heartbeat(sender=None, **kwargs) -> None:
    """/health/ reports how long ago a worker process was last alive (jobs.heartbeat); worker_init is sent
    by every worker, also the test suite's in-process one (worker_ready only by the command-line worker)."""
    from jobs.heartbeat import heartbeat_start

    heartbeat_start(sender.hostname if sender is not None else "worker")

app.conf.beat_schedule = {
    "validate-product-urls-nightly": {
        "task": "catalog.tasks.validate_all_product_urls",
        "schedule": crontab(hour=3, minute=15),
    },
    "recheck-broken-product-urls-weekly": {
        "task": "catalog.tasks.recheck_broken_product_urls",
        "schedule": crontab(hour=4, minute=15, day_of_week="sunday"),
    },
    # Judged situations, votes and the catalog change during the day; a nightly replay keeps acceptance current.
    "calibrate-product-acceptance-nightly": {
        "task": "search.tasks.calibrate_product_acceptance",
        "schedule": crontab(hour=2, minute=30),
    },
}
