"""A budget from the form or the text leaves out products whose lowest price exceeds it, and says so."""

import pytest
from django.urls import reverse

from catalog.models import Product
from search.models import SearchLog
from search.pipeline.budget import budget_from_field, budget_from_text, over_budget_note
from search.pipeline.errors import SearchInputError
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.serializers import outcome_json, stored_search_json
from search.services import search_log_record

BURNOUT = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"


@pytest.mark.parametrize(("text", "euros"), [
    ("Rugklachten na een val, budget tot € 500", 500),
    ("maximaal 1000 euro beschikbaar voor begeleiding", 1000),
    ("budget 2.500", 2500),
    ("het budget is €1.250,-", 1250),
    ("kosten mogen hooguit € 750 zijn", 750),
    ("max. €300 per medewerker", 300),
    ("binnen een budget van 800 euro", 800),
    ("We hebben een gezondheidsbudget van 5000 euro voor twintig monteurs", 5000),  # a budget word inside a compound
    ("het re-integratiebudget is € 3.000", 3000),
    ("al 6 maanden ziek, werkt tot 17 uur", None),  # numbers that are no money
    ("heeft schulden van € 20.000", None),  # money that is no budget
    ("tot 6 maanden verzuim", None),
])
def test_it_reads_a_budget_from_the_situation(text, euros):
    assert budget_from_text(text) == euros


@pytest.mark.parametrize(("value", "euros"), [("tot € 2.500", 2500), ("2500", 2500), ("€ 1.250,50", 1250), ("", None), ("   ", None)])
def test_it_reads_the_budget_field(value, euros):
    assert budget_from_field(value) == euros


@pytest.mark.parametrize(("value", "message"), [("beperkt", "geen bedrag"), ("€ 99.000.000", "niet realistisch")])
def test_it_refuses_a_budget_field_without_a_sensible_amount(value, message):
    with pytest.raises(SearchInputError, match=message):
        budget_from_field(value)


def test_it_says_how_many_interventions_fall_outside_the_budget_in_dutch():
    assert over_budget_note(1, 500) == "1 interventie valt buiten het budget van € 500."
    assert over_budget_note(3, 2500) == "3 interventies vallen buiten het budget van € 2.500."


@pytest.mark.django_db
def test_it_leaves_out_products_above_the_budget_and_says_so():
    without = search_run(SearchRequest(query=BURNOUT))
    assert any((item.product.price_from_eur or 0) > 500 for item in without.recommendations)  # the case worth testing
    assert without.budget_note == ""

    outcome = search_run(SearchRequest(query=BURNOUT, budget="tot € 500"))
    assert outcome.context.budget_eur == 500
    assert outcome.recommendations
    assert all(item.product.price_from_eur is None or item.product.price_from_eur <= 500 for item in outcome.recommendations)
    assert all(item.product.price_from_eur is None or item.product.price_from_eur <= 500 for item in outcome.workplace_suggestions)
    assert outcome.budget_note.endswith("buiten het budget van € 500.")

    data = outcome_json(outcome)
    assert data["context"]["budget_eur"] == 500 and data["budget_note"] == outcome.budget_note
    first = data["recommendations"][0]
    assert first["within_budget"] is (True if first["price_from_eur"] is not None else None)
    stored = stored_search_json(SearchLog.objects.get(id=search_log_record(outcome=outcome, top_k=3)))
    assert stored["budget_note"] == outcome.budget_note
    assert [r["within_budget"] for r in stored["recommendations"]] == [r["within_budget"] for r in data["recommendations"]]


@pytest.mark.django_db
def test_it_takes_the_budget_from_the_text_and_marks_unknown_prices_as_unknown():
    Product.objects.filter(name="Psycholoog").update(price_from_eur=None)
    outcome = search_run(SearchRequest(query=f"{BURNOUT}, budget maximaal 200 euro"))
    assert outcome.context.budget_eur == 200
    by_name = {item.product.name: item for item in outcome.recommendations}
    assert "Multidisciplinaire burnout aanpak" not in by_name
    if "Psycholoog" in by_name:
        assert by_name["Psycholoog"].within_budget is None


@pytest.mark.django_db
def test_it_shows_the_budget_note_under_the_cards_and_explains_a_bad_budget(client, owner):
    client.force_login(owner)
    owner_client = client
    response = owner_client.post(reverse("search:new"), {"situatie": BURNOUT, "budget": "tot € 500"}, follow=True)
    assert "buiten het budget van € 500" in response.content.decode()
    assert SearchLog.objects.get().budget_note.endswith("€ 500.")

    response = owner_client.post(reverse("search:new"), {"situatie": BURNOUT, "budget": "beperkt"})
    assert response.status_code == 422
    assert "geen bedrag" in response.content.decode()
