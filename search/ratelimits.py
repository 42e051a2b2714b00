"""Rate limits on what costs the server most (a search, a guideline question), per user, with
django-ratelimit on the shared Redis cache. Answered in Dutch with 429 and Retry-After.

Without Redis the limits are off rather than the site (RATELIMIT_FAIL_OPEN, and django-redis
ignores connection errors): the search must keep working in degraded mode.
"""

from dataclasses import dataclass

from django.conf import settings
from django_ratelimit.core import get_usage


@dataclass(frozen=True)
class RateLimited(Exception):
    retry_after_s: int

    @property
    def message(self) -> str:
        return f"U heeft in korte tijd veel vragen gesteld. Probeer het over {self.retry_after_s} seconden opnieuw."


def rate_limit_check(request, *, group: str) -> None:
    """Count this request against the user's (or address's) limit for the group; raise RateLimited above it."""
    usage = get_usage(request, group=group, key="user_or_ip", rate=settings.RATE_LIMITS[group], increment=True)
    if usage is not None and usage["should_limit"]:
        raise RateLimited(max(int(usage["time_left"]), 1))
