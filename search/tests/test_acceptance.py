"""Product acceptance: replaying the judged situations, and a product the sets seldom accept when shown counting less."""

from dataclasses import replace

import pytest

from catalog.models import Product
from search.models import ProductAcceptance, ReferenceJudgement, ReferenceSituation
from search.pipeline import acceptance as acceptance_module
from search.pipeline.acceptance import acceptance_deviations, with_acceptance
from search.pipeline.ranking.parameters import DEFAULT
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.product_acceptance import product_acceptance_refresh


@pytest.fixture
def fresh_acceptance(fresh_precedent_index):
    """Rows a test writes in its own (rolled-back) transaction do not advance the cache generation."""
    acceptance_module._cached.update(generation=None, rows=[], deviations={})
    yield
    acceptance_module._cached.update(generation=None, rows=[], deviations={})


def _situation(source: str, external_id: str, text: str, grades: dict[str, int]) -> ReferenceSituation:
    situation = ReferenceSituation.objects.create(source=source, external_id=external_id, text=text)
    for name, grade in grades.items():
        ReferenceJudgement.objects.create(situation=situation, product=Product.objects.get(name=name), grade=grade)
    return situation


@pytest.mark.django_db
def test_it_counts_per_product_how_often_a_set_accepted_it_in_the_top_3(fresh_acceptance):
    _situation("proef", "1", "Medewerker van 45 is sinds drie weken thuis met lage rugpijn na tillen", {"Vroegconsult fysiotherapie": 2, "Hulp bij financiële problemen": -1})
    _situation("proef", "2", "Werknemer met schulden, deurwaarder staat op de stoep, slaapt slecht", {"Hulp bij financiële problemen": 2})
    ProductAcceptance.objects.create(product=Product.objects.get(name="Coaching"), source="proef", shown=9, accepted=9)  # stale

    result = product_acceptance_refresh(sources=["proef"])

    rows = {(r.product.name, r.shown, r.accepted) for r in ProductAcceptance.objects.filter(source="proef").select_related("product")}
    assert (result.situations, result.sources) == (2, 1)
    assert sum(shown for _, shown, _ in rows) == 6  # three places each
    assert ("Vroegconsult fysiotherapie", 1, 1) in rows and ("Hulp bij financiële problemen", 1, 1) in rows
    assert all(accepted <= shown for _, shown, accepted in rows)
    assert not any(name == "Coaching" and shown == 9 for name, shown, _ in rows)  # replaced, not added to
    product_acceptance_refresh(sources=["proef"])
    assert {(r.product.name, r.shown, r.accepted) for r in ProductAcceptance.objects.filter(source="proef").select_related("product")} == rows


@pytest.mark.django_db
def test_it_lets_a_product_the_sets_seldom_accept_count_less_unless_its_own_set_is_measured(fresh_acceptance):
    query = "Medewerker voelt zich overspannen door conflict met leidinggevende, sinds twee weken thuis"
    plain = search_run(SearchRequest(query=query, top_k=5), params=replace(DEFAULT, acceptance_weight=0.0)).recommendations
    broad, second = plain[0].product, plain[1].product
    ProductAcceptance.objects.create(product=broad, source="proef", shown=200, accepted=10)
    ProductAcceptance.objects.create(product=second, source="proef", shown=200, accepted=190)

    deviations = acceptance_deviations()
    assert deviations[broad.id] < 0 < deviations[second.id]
    assert acceptance_deviations(held_out_source="proef") == {}
    assert acceptance_deviations(p=replace(DEFAULT, acceptance_weight=0.0)) == {}
    assert with_acceptance({broad.id: 0.1}, {broad.id: -0.9}) == {broad.id: 0.0}  # never below zero

    calibrated = {item.product.id: item for item in search_run(SearchRequest(query=query, top_k=5)).recommendations}
    original = {item.product.id: item for item in plain}
    assert calibrated[second.id].topical > original[second.id].topical
    assert broad.id not in calibrated or calibrated[broad.id].topical < original[broad.id].topical
    held_out = search_run(SearchRequest(query=query, top_k=5, held_out_source="proef")).recommendations
    assert [item.product.id for item in held_out] == [item.product.id for item in plain]


@pytest.mark.django_db
def test_it_shows_admins_the_acceptance_counts_without_letting_them_edit_them(client, staff):
    ProductAcceptance.objects.create(product=Product.objects.get(name="Coaching"), source="proef", shown=12, accepted=3)
    client.force_login(staff)
    page = client.get("/admin/search/productacceptance/").content.decode()
    assert "Coaching" in page and "proef" in page
    assert client.get("/admin/search/productacceptance/add/").status_code == 403


def test_it_recalibrates_every_night_with_a_registered_task():
    from evi_site.celery import app

    entry = app.conf.beat_schedule["calibrate-product-acceptance-nightly"]
    assert entry["task"] == "search.tasks.calibrate_product_acceptance"
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
