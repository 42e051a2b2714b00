"""Celery tasks for the catalog's link checks; each takes ids, loads fresh rows and is idempotent."""

from datetime import timedelta

from celery import shared_task

from catalog import selectors, url_validation
from catalog.models import Product, UrlStatus
from jobs.retry import RETRY_POLICY

# A scheduled round that is run again (a retry, a second beat by mistake) leaves the products it
# has already checked alone, instead of checking them twice within seconds.
FAN_OUT_SKIP_IF_CHECKED_WITHIN_S = 6 * 3600


@shared_task(bind=True, **RETRY_POLICY)
def validate_product_url(self, product_id: int, skip_if_checked_within_s: int = 0) -> dict | None:
    """Check one product's url; the task id is the run id, so a redelivered message records once."""
    try:
        product = url_validation.product_url_validate(
            product_id=product_id,
            run_id=self.request.id or "",
            skip_if_checked_within=timedelta(seconds=skip_if_checked_within_s) if skip_if_checked_within_s else None,
        )
    except Product.DoesNotExist:
        return None
    return {
        "product_id": product.id,
        "url_status": product.url_status,
        "http_status": product.url_http_status,
        "final_url": product.url_final_url,
    }


@shared_task(**RETRY_POLICY)
def validate_all_product_urls() -> int:
    """Nightly: every active product with a url, except broken ones (those are the weekly re-check's)."""
    return _fan_out(selectors.product_ids_with_url(exclude_url_status=UrlStatus.BROKEN))


@shared_task(**RETRY_POLICY)
def recheck_broken_product_urls() -> int:
    """Weekly: give broken links a chance to come back without hitting a dead site every night."""
    return _fan_out(selectors.product_ids_with_url(url_status=UrlStatus.BROKEN))


def _fan_out(product_ids: list[int]) -> int:
    for product_id in product_ids:
        validate_product_url.apply_async(args=(product_id, FAN_OUT_SKIP_IF_CHECKED_WITHIN_S))
    return len(product_ids)
