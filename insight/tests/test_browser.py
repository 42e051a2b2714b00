"""A curator's look at the insight page in Debian's Chromium, after real searches and a vote through the site.

Uses the shared browser support of evi_site.tests.browser; saves screenshots under test-output/screenshots/.
"""

import re

import pytest

from evi_site.tests.browser import BROWSER_TEST, log_in, screenshot

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
OFF_TOPIC = "Wat is een goed recept voor appeltaart met kaneel?"

pytestmark = BROWSER_TEST


@pytest.fixture
def curator(demo_data, django_user_model):
    return django_user_model.objects.create_user(username="curator-test", password="browser-test-pass-1", is_staff=True)


def _search(page, situation: str) -> None:
    page.get_by_label("Situatie van de werknemer").fill(situation)
    page.get_by_role("button", name="Zoek interventies").click()


def test_it_shows_a_curator_the_searches_votes_and_missing_situations_as_charts(live_server, browser, curator):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="nl-NL")
    blocked = []  # the Content-Security-Policy must not block anything the page needs
    page.on("console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None)
    log_in(page, live_server.url + "/", username="curator-test", password="browser-test-pass-1")

    _search(page, SITUATION)
    first = page.locator("#resultaten > article.card").first
    expect(first).to_be_visible()
    voted_product = first.locator("h3").inner_text().split(". ", 1)[1]
    first.get_by_role("button", name="Bruikbaar", exact=True).click()
    expect(first.get_by_text("uw stem is opgeslagen")).to_be_visible()
    _search(page, OFF_TOPIC)
    expect(page.get_by_text("Geen producten gevonden voor deze zoekopdracht.")).to_be_visible()

    page.get_by_role("link", name="Inzicht").click()
    expect(page.get_by_role("heading", name="Inzicht", exact=True)).to_be_visible()
    searches = page.locator("#grafiek-zoekvragen svg[role=img]")
    expect(searches).to_be_visible()
    expect(searches).to_have_attribute("aria-label", re.compile(r"^Zoekvragen per dag\. .*Geen resultaten: 1 in totaal$"))
    expect(searches.locator("rect.bar")).to_have_count(2)  # today: the first search's segment and the one without results
    assert searches.locator("rect.bar").first.bounding_box()["height"] > 10
    expect(page.locator("#grafiek-zoektijd svg[role=img] circle.point")).to_have_count(2)  # today's median and p95
    votes = page.locator("figure.product-votes").filter(has_text=voted_product)
    expect(votes.locator("svg[role=img] rect.bar")).to_have_count(1)
    expect(votes.locator("figcaption")).to_have_text(f"{voted_product}: 1 bruikbaar · 0 niet bruikbaar")
    expect(page.locator("#zonder-resultaat")).to_contain_text(OFF_TOPIC.lower())
    assert blocked == [], blocked
    screenshot(page, "inzicht-1280.png")

    page.get_by_role("link", name="7 dagen").click()
    expect(page.get_by_role("link", name="7 dagen")).to_have_attribute("aria-current", "page")
    expect(page.locator("#grafiek-zoekvragen svg rect.bar")).to_have_count(2)

    page.goto(live_server.url + "/admin/")
    screenshot(page, "inzicht-admin-1280.png", full_page=False)
    page.get_by_role("link", name="Zoekgedrag, ontbrekend aanbod, feedback en links").click()
    expect(page.get_by_role("heading", name="Inzicht", exact=True)).to_be_visible()
