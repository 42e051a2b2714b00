"""The specialist's path through the web UI in Debian's Chromium (never a downloaded browser).

One test walks the whole path, because every transactional test after a flush reloads the demo data.
It also saves screenshots under test-output/screenshots/; copy one of each to docs/screenshots/ by hand
when the UI changes (a test run never modifies tracked files).
"""

from pathlib import Path

import pytest

from evi_site.tests.browser import BROWSER_TEST, log_in, screenshot

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
SECTIONS = ("Voordelen voor Jan", "Voordelen voor Acme BV", "Ondersteunende Nederlandse Richtlijnen", "Details & Boekingsinformatie")

pytestmark = BROWSER_TEST


@pytest.fixture
def specialist(demo_data, django_user_model):
    return django_user_model.objects.create_user(username="specialist-test", password="browser-test-pass-1")


def _search(page) -> None:
    page.get_by_label("Situatie van de werknemer").fill(SITUATION)
    page.get_by_label("Naam", exact=True).fill("Jan")
    page.get_by_label("Bedrijf").fill("Acme BV")
    page.get_by_role("button", name="Zoek interventies").click()


def test_it_walks_a_specialist_from_situation_to_vote_and_export(live_server, browser, specialist):
    """With JavaScript (htmx swaps, no reloads), then the same path without it (plain forms and links)."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="nl-NL", accept_downloads=True)
    blocked = []  # the Content-Security-Policy must not block anything the pages need
    page.on("console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None)
    log_in(page, live_server.url + "/", username="specialist-test", password="browser-test-pass-1")
    screenshot(page, "zoekpagina-1280.png")

    page.evaluate("window.sameDocument = true")  # lost if the browser loads a new page
    _search(page)
    expect(page.get_by_role("heading", name="Werknemergerichte interventies voor Jan")).to_be_visible()
    assert page.evaluate("window.sameDocument") is True

    cards = page.locator("#resultaten > article.card")
    expect(cards).to_have_count(3)
    for rank in range(3):
        card = cards.nth(rank)
        assert card.locator("h3").inner_text().startswith(f"{rank + 1}. ")
        for section in SECTIONS:
            expect(card.get_by_role("heading", name=section)).to_be_visible()
    expect(page.get_by_role("heading", name="Overweeg eventueel ook")).to_be_visible()

    first = cards.first
    citation = first.locator("details.citation").first
    citation.locator("summary").click()
    expect(citation.locator(".chunk-text")).to_be_visible()
    assert len(citation.locator(".chunk-text").inner_text()) > 40

    first.get_by_role("button", name="Bruikbaar", exact=True).click()
    expect(first.get_by_text("uw stem is opgeslagen")).to_be_visible()
    expect(first.get_by_role("button", name="Bruikbaar", exact=True)).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.sameDocument") is True
    assert blocked == [], blocked
    screenshot(page, "resultaten-1280-volledig.png")
    page.set_viewport_size({"width": 1280, "height": 1500})
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "resultaten-1280.png", full_page=False)

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Exporteer als Markdown").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".md")
    markdown = Path(download.path()).read_text(encoding="utf-8")
    assert "### 1. " in markdown and "**Voordelen voor Jan:**" in markdown and "**Voordelen voor Acme BV:**" in markdown
    assert "**Ondersteunende Nederlandse Richtlijnen:**" in markdown

    page.get_by_role("link", name="Vaste link naar dit advies").click()
    page.reload()
    reopened = page.locator("#resultaten > article.card").first
    expect(reopened.get_by_role("button", name="Bruikbaar", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(reopened.get_by_role("button", name="Niet bruikbaar")).to_have_attribute("aria-pressed", "false")

    page.set_viewport_size({"width": 768, "height": 1000})
    screenshot(page, "resultaten-768.png")
    page.goto(live_server.url + "/")
    screenshot(page, "zoekpagina-768.png")

    plain = browser.new_page(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    log_in(plain, live_server.url + "/", username="specialist-test", password="browser-test-pass-1")
    _search(plain)
    expect(plain.get_by_role("heading", name="Werknemergerichte interventies voor Jan")).to_be_visible()
    plain.get_by_role("link", name="Vaste link naar dit advies").click()
    card = plain.locator("#resultaten > article.card").nth(1)
    card.locator("details.citation summary").first.click()
    card.get_by_role("link", name="Lees de passage").first.click()
    expect(plain.locator(".chunk-text")).to_be_visible()
    plain.go_back()
    plain.locator("#resultaten > article.card").nth(1).get_by_role("button", name="Niet bruikbaar").click()
    expect(plain.get_by_text("Dank u, uw stem is opgeslagen.").first).to_be_visible()
    assert "/zoekvragen/" in plain.url
    voted = plain.locator("#resultaten > article.card").nth(1)
    expect(voted.get_by_role("button", name="Niet bruikbaar")).to_have_attribute("aria-pressed", "true")


def test_it_answers_a_guideline_question_without_putting_it_in_the_url(live_server, browser, specialist):
    """With JavaScript (an htmx POST) and without (a plain form POST): the answer with its sources, the URL unchanged."""
    from playwright.sync_api import expect

    for javascript in (True, False):
        page = browser.new_page(viewport={"width": 1280, "height": 900}, java_script_enabled=javascript)
        log_in(page, live_server.url + "/", username="specialist-test", password="browser-test-pass-1")
        page.goto(live_server.url + "/richtlijnen/")
        page.get_by_label("Uw vraag over de richtlijnen").fill("Wat moet er in het plan van aanpak staan?")
        page.get_by_role("button", name="Vraag stellen").click()
        expect(page.get_by_role("heading", name="Antwoord")).to_be_visible()
        expect(page.get_by_role("heading", name="Bronnen")).to_be_visible()
        assert page.url == live_server.url + "/richtlijnen/", page.url
        page.close()


@pytest.mark.parametrize("with_llm", [False, True], ids=["offline", "fake-llm"])
def test_it_streams_the_answer_on_the_richtlijnen_page(live_server, browser, specialist, settings, httpserver, with_llm):
    """The answer arrives as Server-Sent Events and ends in the validated answer with its sources, with and without an LLM."""
    import json

    from playwright.sync_api import expect

    if with_llm:
        settings.LLM_API_KEY, settings.LLM_BASE_URL, settings.LLM_MODEL = "test-key", httpserver.url_for("/v1"), "fake"
        pieces = ["Het plan van aanpak ", "wordt uiterlijk in week 8 ", "opgesteld [1]."]
        body = "".join(
            "data: " + json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake",
                                   "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}) + "\n\n"
            for p in pieces
        ) + "data: [DONE]\n\n"
        httpserver.expect_request("/v1/chat/completions").respond_with_data(body, content_type="text/event-stream")
    else:
        settings.LLM_API_KEY = ""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, live_server.url + "/", username="specialist-test", password="browser-test-pass-1")
    page.goto(live_server.url + "/richtlijnen/")
    page.get_by_label("Uw vraag over de richtlijnen").fill("Wanneer moet het plan van aanpak klaar zijn?")
    with page.expect_response(lambda response: "/richtlijnen/stroom/" in response.url) as streamed:
        page.get_by_role("button", name="Vraag stellen").click()
    assert streamed.value.headers["content-type"].startswith("text/event-stream")
    assert "plan" not in streamed.value.url
    answer = page.locator("#antwoord")
    expect(answer.get_by_role("heading", name="Bronnen")).to_be_visible()
    expect(answer.locator(".answer-streaming")).to_have_count(0)  # the final panel replaced the streamed text
    if with_llm:
        expect(answer).to_contain_text("uiterlijk in week 8 opgesteld [1].")
        expect(answer).to_contain_text("Opgesteld door een taalmodel")
        expect(answer.locator('.answer-text a[href="#bron-1"]')).to_be_visible()
    else:
        expect(answer).to_contain_text("Volgens de richtlijnen")
    screenshot(page, f"richtlijnen-stream-{'llm' if with_llm else 'offline'}.png")
    page.close()
