"""Body regions: a product or a guideline named after other regions than the situation's does not lead or back it."""

import pytest

from catalog.models import Product
from search.pipeline.body_regions import body_regions_named, on_other_body_regions
from search.pipeline.context import context_extract
from search.pipeline.ranking.criteria import body_region_mismatch
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

SPINE, SHOULDER, ARM, LOWER = "rug en nek", "schouder", "arm en hand", "been en voet"


@pytest.mark.parametrize(
    ("text", "regions"),
    [
        ("knieklachten", [LOWER]),
        ("heupklachten na val", [LOWER]),
        ("gebroken enkel", [LOWER]),
        ("enkele weken ziek met stress", []),
        ("Rug- en schoudertrajecten", [SPINE, SHOULDER]),
        ("nek- en schouderklachten", [SPINE, SHOULDER]),
        ("pijn in schouder en bovenarm", [SHOULDER, ARM]),
        ("lage rugpijn", [SPINE]),
        ("hernia", [SPINE]),
        ("tennisarm", [ARM]),
        ("8 wk ziek met rechterschouder, kan arm niet boven hoofd", [SHOULDER, ARM]),
        ("linkerknie", [LOWER]),
        ("RSI in de polsen", [ARM]),
        ("eczeem aan beide handen", [ARM]),
        ("terugkeer naar het werk", []),
        ("armoede en schulden", []),
        ("aan de hand van de FML", []),
        ("het conflict liep uit de hand", []),
        ("ontslag op staande voet", []),
        ("voetbaltrainer met burn-out", []),
    ],
)
def test_it_reads_the_body_regions_a_text_names(text, regions):
    assert body_regions_named(text) == regions


@pytest.mark.parametrize(
    ("product", "situation", "damping"),
    [
        ("Rug- en schoudertrajecten", "knieklachten", DEFAULT.mismatch_body_region),
        ("Rug- en schoudertrajecten", "Stratenmaker met knie- en rugklachten", 1.0),
        ("Rug- en schoudertrajecten", "rugklachten na tillen", 1.0),
        ("Rug- en schoudertrajecten", "Uitbener heeft al maanden een tennisarm", DEFAULT.mismatch_body_region),
        ("Rug- en schoudertrajecten", "polsklachten caissière", DEFAULT.mismatch_body_region),
        ("Rug- en schoudertrajecten", "RSI met pijn tot in de schouder", 1.0),
        ("Rug- en schoudertrajecten", "overspannen door werkdruk", 1.0),  # no region named: no judgement
        ("Bedrijfsfysiotherapie", "knieklachten", 1.0),  # a name without a region is for every region
    ],
)
def test_it_damps_a_product_named_after_other_body_regions(product, situation, damping):
    assert DEFAULT.mismatch_body_region < 1.0
    assert body_region_mismatch(Product(name=product), context_extract(situation)) == damping


def test_it_does_not_let_a_guideline_on_other_regions_back_a_product():
    assert on_other_body_regions("NVAB Richtlijn Klachten aan arm, nek en/of schouder 1.3 Omvang", [LOWER])
    assert not on_other_body_regions("NVAB Richtlijn Klachten aan arm, nek en/of schouder 1.3 Omvang", [SPINE])
    assert not on_other_body_regions("NVAB Richtlijn Klachten aan arm, nek en/of schouder 1.3 Omvang", [ARM])
    assert on_other_body_regions("NVAB Richtlijn Lage-rugpijn 3.4 Aangepast werk", [ARM])
    assert not on_other_body_regions("Arbobesluit: fysieke belasting en tilwerk 3.5 Afstemming", [LOWER])
    assert not on_other_body_regions("NVAB Richtlijn Lage-rugpijn 3.4 Aangepast werk", [])


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["knieklachten", "heupklachten", "Heftruckchauffeur heeft zijn knie verdraaid in het magazijn, kan niet lopen"])
def test_it_keeps_back_and_shoulder_tracks_and_their_guidelines_away_from_knees_and_hips(query):
    outcome = search_run(SearchRequest(query=query, top_k=3))
    names = [item.product.name for item in outcome.recommendations]
    assert names and "Rug- en schoudertrajecten" not in names
    cited = [c.document_title for item in outcome.recommendations for c in item.citations]
    assert not [title for title in cited if "schouder" in title.lower() or "rugpijn" in title.lower()]
