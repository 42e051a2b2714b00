"""A product for an occasion (a pregnancy, an accident, a language barrier) needs the situation to name it."""

import pytest

from catalog.models import Product
from search.pipeline.context import context_extract
from search.pipeline.prerequisites import occasions_named
from search.pipeline.ranking.criteria import occasion_mismatch
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

PREGNANCY, ACCIDENT, LANGUAGE = "een zwangerschap", "een ongeval of incident", "een taalbarrière"
MENOPAUSE, LIABLE_PARTY, LOSS, CARER = "de overgang", "een ander die de schade veroorzaakte", "een overlijden of verlies", "zorg voor een naaste"


@pytest.mark.parametrize(
    ("text", "occasions"),
    [
        ("Verzorgende is 14 weken zwanger en werkt nachtdiensten", [PREGNANCY]),
        ("terug na de bevalling, wil kolven op het werk", [PREGNANCY]),
        ("Uitzendkracht met zijn hand in de kantbank gekomen, 2 vingers kwijt; hoe kon dit gebeuren?", [ACCIDENT]),
        ("dodelijk ongeval op de bouwplaats", [ACCIDENT, LOSS]),
        ("Schoonmaakster van Poolse afkomst spreekt weinig Nederlands", [LANGUAGE]),
        ("Nachtdienst en slaapproblemen bij een verpleegkundige", []),
        ("Werkdruk in het team, we willen een RI&E laten doen", []),
        ("Leerkracht voelt zich opgebrand door de hoge werkdruk", []),
        ("brandwonden na een steekvlam in de keuken", [ACCIDENT]),
        ("Verpleegkundige van 52 heeft last van opvliegers en slaapt slecht", [MENOPAUSE]),
        ("Chauffeur met whiplash na een kop-staartbotsing, kunnen we de loonkosten verhalen?", [LIABLE_PARTY]),
        ("Medewerkster gebeten door de hond van de buren", [LIABLE_PARTY]),
        ("Schoonmaakster huilt sinds het overlijden van haar man", [LOSS]),
        ("Logopedist zorgt sinds de zomer voor haar moeder met alzheimer", [CARER]),
        ("Monteur heeft een ernstig ziek kind in het ziekenhuis", [CARER]),
        ("Medewerker is voor de derde keer dit jaar ziek en heeft schulden", []),
        ("Vertrouwen in de leidinggevende is weg na een conflict", []),
    ],
)
def test_it_reads_the_occasions_a_situation_names(text, occasions):
    assert occasions_named(text) == occasions


@pytest.mark.parametrize(
    ("product", "situation", "damping"),
    [
        ("Zwangerschapsconsult werkplek", "Verpleegkundige met nachtdiensten slaapt slecht", DEFAULT.missing_occasion),
        ("Zwangerschapsconsult werkplek", "Verpleegkundige is zwanger en werkt nachtdiensten", 1.0),
        ("Arbeidsongevallenonderzoek", "De Arbeidsinspectie komt langs en we hebben nog geen RI&E", DEFAULT.missing_occasion),
        ("Arbeidsongevallenonderzoek", "Medewerker met rugklachten door tillen", DEFAULT.missing_occasion),
        ("Tolk", "Medewerker met rugklachten door tillen", DEFAULT.missing_occasion),
        ("Overgangsconsultatie", "Docent met concentratie- en geheugenproblemen na een hersenschudding", DEFAULT.missing_occasion),
        ("Rouwbegeleiding", "Jongerenwerker met schulden door gokken slaapt slecht", DEFAULT.missing_occasion),
        ("Vertrouwenspersoon", "Medewerker voelt zich gepest door een collega", 1.0),  # "rouw" only where a name starts with it
        ("Regres", "schulden", DEFAULT.missing_occasion),
        ("Mantelzorgondersteuning", "Medewerker zorgt voor haar vader met dementie", 1.0),
        ("Slaapcoaching", "Medewerker met rugklachten door tillen", 1.0),  # a product for no occasion is never damped
    ],
)
def test_it_damps_a_product_whose_occasion_the_situation_does_not_name(product, situation, damping):
    assert DEFAULT.missing_occasion < 1.0
    assert occasion_mismatch(Product(name=product), context_extract(situation)) == damping


@pytest.mark.django_db
def test_it_keeps_the_pregnancy_consultation_for_pregnancies():
    outcome = search_run(SearchRequest(query="Verpleegkundige werkt al jaren nachtdiensten en slaapt slecht, ze is moe op het werk", top_k=5))
    assert "Zwangerschapsconsult werkplek" not in [item.product.name for item in outcome.recommendations]
    outcome = search_run(SearchRequest(query="Verpleegkundige is 20 weken zwanger en werkt nachtdiensten", top_k=3))
    assert "Zwangerschapsconsult werkplek" in [item.product.name for item in outcome.recommendations]
