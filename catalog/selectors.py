"""Reads from the catalog."""

from catalog.models import Product
from catalog.services import IMPORT_FIELDS


def product_export_rows(*, active_only: bool = False) -> list[dict]:
    """Products as import rows, so an export can be edited and imported again."""
    products = Product.objects.order_by("name")
    if active_only:
        products = products.filter(is_active=True)
    return [{field: getattr(product, field) for field in IMPORT_FIELDS} for product in products]
