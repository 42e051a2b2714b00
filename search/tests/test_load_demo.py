import re
from io import StringIO

import pytest
from django.core.management import call_command

from catalog.models import Product
from guidelines.models import GuidelineChunk, GuidelineDocument, InterventionMapping

pytestmark = pytest.mark.django_db

REQUIRED_NAMES = [
    "Arbeidsdeskundig Onderzoek", "Online Werkplekonderzoek", "Lekencontrole (huisbezoek)", "Re-Integratie 2e Spoor",
    "Hulp bij financiële problemen", "Expertise", "Opstellen Verzuimbeleid", "Vroegconsult psycholoog bij minder dan 6 weken verzuim",
    "Loonwaardebepaling", "Rug- en schoudertrajecten", "Mediation Bij Ziekteverzuim", "Re-Integratie 3e Spoor",
    "Bedrijfsmaatschappelijk werk", "Vroegconsult fysiotherapie", "Bedrijfsfysiotherapie", "Bezwaar- en beroep", "Coaching",
    "Traumaverwerking", "Psycholoog", "Multidisciplinair traject", "Tolk", "Vertrouwenspersoon", "Regres",
    "Verzuimtraining Voor Leidinggevende", "Multidisciplinaire burnout aanpak", "Adviesgesprek P&O Adviseur",
    "Verslavingszorg interventie", "Overgangsconsultatie", "Werkplekonderzoek op locatie",
    "Individuele Leefstijl- En Vitaliteitscoaching", "Herstelcoaching", "Leefstijlprogramma's", "Arbeidsrechtelijke ondersteuning",
    "Gewichtsconsulent - Intake Online", "Loopbaancoaching", "Preventief Medisch Onderzoek (PMO)", "Energiemeting", "Training BHV",
    "Opstellen Inzetbaarheidsplan", "Gespreksbegeleiding", "Vroegconsult Arbeidsdeskundige", "Executive Coaching",
    "Burn-out preventie workshop", "Werkdrukanalyse", "Teamcoaching", "Risico-inventarisatie en -evaluatie (RI&E)",
]


def _counts() -> tuple[int, ...]:
    return (Product.objects.count(), GuidelineDocument.objects.count(), GuidelineChunk.objects.count(), InterventionMapping.objects.count())


def test_it_loads_a_complete_embedded_demo_that_a_second_run_leaves_unchanged():
    before = _counts()
    updated = list(Product.objects.order_by("id").values_list("updated_at", flat=True))
    out = StringIO()
    call_command("load_demo", stdout=out, verbosity=0)
    assert _counts() == before
    assert list(Product.objects.order_by("id").values_list("updated_at", flat=True)) == updated
    report = out.getvalue()
    assert re.search(r"0 nieuw, 0 bijgewerkt, \d+ ongewijzigd; 0 opnieuw geïndexeerd", report)
    assert "0 nieuw, 0 vervangen" in report

    products, documents, chunks, mappings = before
    assert products >= 50 and documents >= 14 and chunks >= 300 and mappings >= 26
    assert set(REQUIRED_NAMES) <= set(Product.objects.values_list("name", flat=True))
    assert not Product.objects.filter(embedding=None).exists()
    assert not GuidelineChunk.objects.filter(embedding=None).exists()


def test_it_fills_every_product_field_a_specialist_sees():
    for product in Product.objects.all():
        assert product.description.count(".") >= 3, product.name
        assert product.problem_areas and product.target_roles and product.sectors, product.name
        assert product.benefits_employee and product.benefits_employer and product.price_text, product.name
        assert product.typical_duration and product.time_to_start_days is not None, product.name
