"""Check a product's booking link and record the result, safe under concurrent and repeated runs."""

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from catalog.models import Product, UrlStatus
from catalog.url_checks import CheckResult, Outcome, check_url

URL_CHECK_RESULT_FIELDS = (
    "url_status", "url_checked_at", "url_http_status", "url_final_url", "url_failure_count", "url_error",
)


def product_url_validate(*, product_id: int, run_id: str = "", skip_if_checked_within: timedelta | None = None) -> Product:
    """Check the product's url and record the result; returns the product as stored afterwards.

    Concurrency: a run first claims the row (url_check_id/url_check_started_at, one conditional
    UPDATE), so while one run checks, another run finds the claim and returns without a request.
    The same run id may claim again: that is Celery redelivering or retrying the same task, and
    its result is recorded only once, because recording needs the claim still open and closes it
    under a row lock. A claim older than the hard task time limit is abandoned and may be taken.
    No lock is held during the network request.

    `skip_if_checked_within` makes a fan-out safe to repeat: products checked that recently are left alone.
    """
    run_id = run_id or uuid.uuid4().hex
    url = _url_check_claim(product_id=product_id, run_id=run_id, skip_if_checked_within=skip_if_checked_within)
    if url is None:
        return Product.objects.get(pk=product_id)
    result = check_url(url, allowed_hosts=settings.URL_VALIDATION_ALLOWED_HOSTS, timeout=settings.URL_VALIDATION_TIMEOUT_S)
    return _url_check_record(product_id=product_id, run_id=run_id, url=url, result=result)


def product_url_check_reset(*, product: Product) -> None:
    """A new url starts unchecked, and a check of the old url still running can no longer record."""
    values = {
        "url_status": UrlStatus.UNCHECKED, "url_checked_at": None, "url_http_status": None, "url_final_url": "",
        "url_failure_count": 0, "url_error": "", "url_check_id": "", "url_check_started_at": None,
    }
    Product.objects.filter(pk=product.pk).update(**values)
    for name, value in values.items():
        setattr(product, name, value)


def _url_check_claim(*, product_id: int, run_id: str, skip_if_checked_within: timedelta | None) -> str | None:
    """Take the row for this run; returns the url to check, or None when there is nothing to do."""
    now = timezone.now()
    abandoned_before = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 30)
    claimable = (
        Q(url_check_started_at__isnull=True) & ~Q(url_check_id=run_id)
        | Q(url_check_id=run_id, url_check_started_at__isnull=False)
        | Q(url_check_started_at__lt=abandoned_before)
    )
    products = Product.objects.filter(claimable, pk=product_id).exclude(url="")
    if skip_if_checked_within is not None:
        products = products.filter(Q(url_checked_at__isnull=True) | Q(url_checked_at__lt=now - skip_if_checked_within))
    if not products.update(url_check_id=run_id, url_check_started_at=now):
        return None
    return Product.objects.filter(pk=product_id).values_list("url", flat=True).first()


def _url_check_record(*, product_id: int, run_id: str, url: str, result: CheckResult) -> Product:
    with transaction.atomic():
        product = (
            Product.objects.select_for_update()
            .filter(pk=product_id, url=url, url_check_id=run_id, url_check_started_at__isnull=False)
            .first()
        )
        if product is None:
            # Superseded: the url changed meanwhile (its own check is queued), or this run already
            # recorded under its id, or it overran and another run took the claim.
            return Product.objects.get(pk=product_id)
        _apply_check_result(product, result)
        product.url_check_started_at = None
        product.save(update_fields=[*URL_CHECK_RESULT_FIELDS, "url_check_started_at"])
    return product


def _apply_check_result(product: Product, result: CheckResult) -> None:
    """Broken needs two HTTP errors in a row; a network failure only says we could not tell."""
    previous_was_http_error = product.url_failure_count > 0 and (product.url_http_status or 0) >= 400
    product.url_checked_at = timezone.now()
    product.url_http_status = result.http_status
    product.url_final_url = result.final_url[: Product._meta.get_field("url_final_url").max_length]
    product.url_error = result.error[: Product._meta.get_field("url_error").max_length]
    if result.outcome == Outcome.OK:
        product.url_status = UrlStatus.OK
        product.url_failure_count = 0
        return
    product.url_failure_count += 1
    if result.outcome == Outcome.UNREACHABLE:
        product.url_status = UrlStatus.UNREACHABLE
    elif previous_was_http_error:
        product.url_status = UrlStatus.BROKEN
