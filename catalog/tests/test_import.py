import pytest

from catalog.models import Product
from catalog.selectors import product_export_rows
from catalog.services import ProductImportError, product_import

pytestmark = pytest.mark.django_db


def test_it_reimports_an_export_without_changing_anything():
    before = {p.id: p.updated_at for p in Product.objects.all()}
    report = product_import(rows=product_export_rows())
    assert report.changed_ids == []
    assert report.unchanged == len(before)
    assert {p.id: p.updated_at for p in Product.objects.all()} == before


def test_it_rolls_back_the_whole_import_when_one_row_is_invalid():
    rows = [
        {"name": "Nieuw product A", "description": "x", "category": "Preventie", "phase": "preventie", "delivery": "online"},
        {"name": "Nieuw product B", "description": "x", "category": "Onbekend", "phase": "preventie", "delivery": "online"},
    ]
    with pytest.raises(ProductImportError, match="Regel 2"):
        product_import(rows=rows)
    assert not Product.objects.filter(name__startswith="Nieuw product").exists()


def test_it_names_unknown_fields_in_dutch():
    with pytest.raises(ProductImportError, match="onbekende velden kleur"):
        product_import(rows=[{"name": "X", "kleur": "rood"}])
