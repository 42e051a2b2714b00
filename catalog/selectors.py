"""Reads from the catalog."""

from catalog.models import IMPORT_FIELDS, Product, UrlStatus


def product_export_rows(*, active_only: bool = False) -> list[dict]:
    """Products as import rows, so an export can be edited and imported again."""
    products = Product.objects.order_by("name")
    if active_only:
        products = products.filter(is_active=True)
    return [{field: getattr(product, field) for field in IMPORT_FIELDS} for product in products]


def product_ids_with_url(*, url_status: UrlStatus | None = None, exclude_url_status: UrlStatus | None = None) -> list[int]:
    """Active products that have a url, optionally narrowed by url status, in id order."""
    products = Product.objects.filter(is_active=True).exclude(url="")
    if url_status is not None:
        products = products.filter(url_status=url_status)
    if exclude_url_status is not None:
        products = products.exclude(url_status=exclude_url_status)
    return list(products.order_by("id").values_list("id", flat=True))
