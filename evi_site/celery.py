"""The Celery application: Redis broker, JSON only, tasks discovered in every app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evi_site.settings")

app = Celery("evi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
