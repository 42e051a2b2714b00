"""A citation backs this product: it comes from a guideline on the product's subject, or there is none."""

from io import StringIO

import pytest
from django.core.management import call_command

from catalog.models import Product
from guidelines.models import GuidelineDocument
from search.evaluation import JudgedQuery, citation_subjects_read, evaluate
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

pytestmark = pytest.mark.django_db

BURNOUT = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
ARM_NECK = "NVAB Richtlijn Klachten aan arm, nek en/of schouder"


def _citations(query: str) -> dict[str, set[str]]:
    return {item.product.name: {c.document_title for c in item.citations} for item in search_run(SearchRequest(query=query, top_k=5)).recommendations}


def test_it_cites_only_guidelines_linked_to_a_curated_product():
    cited = _citations(BURNOUT)
    allowed = citation_subjects_read()
    assert cited and any(cited.values())
    for product, titles in cited.items():
        assert titles <= allowed[product], product
    # The example: burn-out care never cites the arm/neck/shoulder guideline's psychosocial section.
    assert not any(ARM_NECK in titles for titles in cited.values())


def test_it_cites_nothing_for_a_curated_product_without_linked_guidelines():
    Product.objects.filter(name="Psycholoog").update(guidelines_curated=True)
    GuidelineDocument.products.through.objects.filter(product__name="Psycholoog").delete()
    cited = _citations("Medewerker met angstklachten en paniekaanvallen, somber, 3 weken thuis")
    assert "Psycholoog" in cited
    assert cited["Psycholoog"] == set()


def test_it_cites_on_subject_documents_or_headings_for_a_product_nobody_curated():
    Product.objects.update(guidelines_curated=False)
    GuidelineDocument.products.through.objects.all().delete()
    cited = _citations("Mijn medewerker zit al drie weken thuis met rugklachten na een val")
    physio = cited.get("Vroegconsult fysiotherapie")
    assert physio is not None and physio
    assert "NVAB Richtlijn Overspanning en burn-out" not in physio  # no topic or heading of it names back complaints


def test_it_reports_the_share_of_citations_on_subject():
    queries = [JudgedQuery("burn-out", BURNOUT, {"Herstelcoaching": 2}), JudgedQuery("rug", "rugklachten", {"Vroegconsult fysiotherapie": 2})]
    subjects = citation_subjects_read()
    assert evaluate(queries, ["two-stage"], subjects=subjects)["modes"]["two-stage"]["citations_on_subject"] == 1.0
    strict = {name: set() for name in subjects}  # a judge who accepts no document at all
    assert evaluate(queries, ["two-stage"], subjects=strict)["modes"]["two-stage"]["citations_on_subject"] == 0.0
    assert evaluate(queries, ["two-stage"])["modes"]["two-stage"]["citations_on_subject"] is None


def test_it_links_the_demo_catalog_to_its_guidelines_once():
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "(0 nieuw)" in out.getvalue().split("Koppelingen product–richtlijn")[1].splitlines()[0]
    assert Product.objects.filter(guidelines_curated=True).count() == Product.objects.count()
