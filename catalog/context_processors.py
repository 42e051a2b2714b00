"""Template context for the admin's broker banner (catalog/templates/admin/base_site.html)."""

from django.conf import settings

from jobs.queue import broker_available


def background_jobs(request) -> dict:
    # A callable, so the Redis ping (cached, 0.5 s timeout) only runs on pages that show the banner.
    return {"background_jobs_down": lambda: not settings.CELERY_TASK_ALWAYS_EAGER and not broker_available()}
