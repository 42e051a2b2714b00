"""Writes to the catalog: importing products from JSON rows (used by load_demo and import_products)."""

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from catalog.models import Product

IMPORT_FIELDS = (
    "name", "portal_id", "url", "description", "category", "problem_areas", "phase", "absence_weeks_min",
    "absence_weeks_max", "audience", "target_roles", "sectors", "delivery", "typical_duration",
    "time_to_start_days", "price_text", "benefits_employee", "benefits_employer",
)
LIST_FIELDS = {"problem_areas", "target_roles", "sectors"}


class ProductImportError(Exception):
    """An import row is invalid; the Dutch message names the row and the problem."""


@dataclass
class ProductImportReport:
    created: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    unchanged: int = 0

    @property
    def changed_ids(self) -> list[int]:
        return self.created + self.updated


def product_import(*, rows: list[dict]) -> ProductImportReport:
    """Create or update products by name, all or nothing; rows equal to the stored product change nothing."""
    report = ProductImportReport()
    with transaction.atomic():
        for number, row in enumerate(rows, start=1):
            values = _clean_row(row, number)
            product = Product.objects.select_for_update().filter(name=values["name"]).first()
            if product is None:
                product = Product(slug=_unique_slug(values["name"]), **values)
                _validate(product, number)
                product.save()
                report.created.append(product.id)
                continue
            if all(getattr(product, key) == value for key, value in values.items()):
                report.unchanged += 1
                continue
            for key, value in values.items():
                setattr(product, key, value)
            _validate(product, number)
            product.save()
            report.updated.append(product.id)
    return report


def _clean_row(row: dict, number: int) -> dict:
    if not isinstance(row, dict):
        raise ProductImportError(f"Regel {number}: verwacht een object met productvelden.")
    unknown = set(row) - set(IMPORT_FIELDS)
    if unknown:
        raise ProductImportError(f"Regel {number}: onbekende velden {', '.join(sorted(unknown))}.")
    name = str(row.get("name") or "").strip()
    if not name:
        raise ProductImportError(f"Regel {number}: de naam ontbreekt.")
    values = {key: row[key] for key in IMPORT_FIELDS if key in row}
    values["name"] = name
    for key in LIST_FIELDS & set(values):
        if not isinstance(values[key], list):
            raise ProductImportError(f"Regel {number} ({name}): '{key}' moet een lijst zijn.")
        values[key] = [str(item).strip().lower() for item in values[key] if str(item).strip()]
    for key in ("url", "typical_duration", "price_text", "benefits_employee", "benefits_employer"):
        if key in values and values[key] is None:
            values[key] = ""
    return values


def _validate(product: Product, number: int) -> None:
    try:
        product.full_clean(exclude=["embedding", "search_vector"])
    except ValidationError as error:
        problems = "; ".join(f"{key}: {' '.join(messages)}" for key, messages in error.message_dict.items())
        raise ProductImportError(f"Regel {number} ({product.name}): {problems}") from None


def _unique_slug(name: str) -> str:
    base = slugify(name)[:180] or "product"
    slug, suffix = base, 2
    while Product.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug
