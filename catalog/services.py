"""Writes to the catalog: saving a product from the admin and importing products from JSON rows
(load_demo, import_products). A new or changed url loses its old check result here; the check
itself is catalog.url_validation's, queued after commit."""

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from catalog.models import IMPORT_FIELDS, Product
from catalog.tasks import validate_product_url
from catalog.url_validation import product_url_check_reset
from jobs.queue import enqueue_on_commit

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
    """Create or update products by name, all or nothing; rows equal to the stored product change nothing.

    A changed url loses its old check result, but is not checked one by one here: a bulk load would
    otherwise fire a request per row. The nightly run or `manage.py validate_urls` checks it.
    """
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
            url_changed = values.get("url", product.url) != product.url
            for key, value in values.items():
                setattr(product, key, value)
            _validate(product, number)
            product.save()
            if url_changed:
                product_url_check_reset(product=product)
            report.updated.append(product.id)
    return report


def product_save(*, product: Product, changed_fields: list[str] | None = None) -> None:
    """Save a product from a form: a new one whole, an existing one only in the fields the form
    changed (a link check or re-index that finished while the form was open keeps its values).
    A new or changed url starts unchecked and is checked once the save has committed."""
    with transaction.atomic():
        if product.pk is None:
            product.save()
            url_changed = bool(product.url)
        else:
            changed_fields = list(changed_fields or [])
            stored_url = Product.objects.filter(pk=product.pk).values_list("url", flat=True).first()
            product.save(update_fields=[*changed_fields, "updated_at"])
            url_changed = "url" in changed_fields and product.url != stored_url
            if url_changed:
                product_url_check_reset(product=product)
        if url_changed and product.url:
            # With Redis down the save does not wait on the product's server: the url stays unchecked
            # until the nightly round or `manage.py validate_urls`.
            enqueue_on_commit(validate_product_url, product.pk, run_here_if_broker_down=False)


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
