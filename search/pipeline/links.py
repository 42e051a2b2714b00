"""Which booking link a recommendation shows (docs/architecture.md, step 7)."""

from dataclasses import dataclass

from django.conf import settings

from catalog.models import Product, UrlStatus

BROKEN_NOTE = "(Directe link niet beschikbaar, zie algemene catalogus)"
MISSING_NOTE = "(Geen directe link bekend, zie algemene catalogus)"
UNVERIFIED_NOTE = "(Link nog niet gecontroleerd)"
UNREACHABLE_NOTE = "(Link kon bij de laatste controle niet worden bereikt)"


NOTES_BY_STATUS = {
    "missing": MISSING_NOTE,
    UrlStatus.BROKEN: BROKEN_NOTE,
    UrlStatus.UNREACHABLE: UNREACHABLE_NOTE,
    UrlStatus.UNCHECKED: UNVERIFIED_NOTE,
}


@dataclass(frozen=True)
class DisplayLink:
    url: str
    status: str
    note: str
    is_catalog_home: bool


def display_link(product: Product) -> DisplayLink:
    if not product.url:
        return DisplayLink(settings.CATALOG_HOME_URL, "missing", MISSING_NOTE, True)
    if product.url_status == UrlStatus.BROKEN:
        return DisplayLink(settings.CATALOG_HOME_URL, UrlStatus.BROKEN, BROKEN_NOTE, True)
    if product.url_status == UrlStatus.UNREACHABLE:
        return DisplayLink(product.url, UrlStatus.UNREACHABLE, UNREACHABLE_NOTE, False)
    if product.url_status == UrlStatus.UNCHECKED:
        return DisplayLink(product.url, UrlStatus.UNCHECKED, UNVERIFIED_NOTE, False)
    return DisplayLink(product.url, UrlStatus.OK, "", False)
