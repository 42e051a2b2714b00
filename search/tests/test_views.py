"""The specialist pages: access, HTMX partials versus full pages, validation, escaping, votes, exports."""

import json

import pytest
from django.urls import reverse

from catalog.models import Product
from guidelines.models import GuidelineChunk
from search import services
from search.models import Citation, FeedbackVote, Recommendation, SearchLog

pytestmark = pytest.mark.django_db

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _stored_search(user, *, query: str = SITUATION, product: Product | None = None, reasoning: str = "Past bij langdurig verzuim.") -> SearchLog:
    """A recorded search with one recommendation citing one chunk, without running the pipeline."""
    product = product or Product.objects.get(name="Herstelcoaching")
    log = SearchLog.objects.create(user=user, query=query, top_k=3, context={"absence_weeks": 26, "absence_status": "verzuim"}, timings_ms={"total": 12.5})
    recommendation = Recommendation.objects.create(
        search=log, product=product, product_name=product.name, rank=1, relevance_score=0.8, impact_score=0.8,
        fit_score=0.7, guidelines_score=0.6, feasibility_score=0.5, similarity=0.3, reasoning=reasoning,
        url_shown=product.url or "https://portal.evi360.nl/products", url_status="ok",
    )
    chunk = GuidelineChunk.objects.select_related("document").first()
    Citation.objects.create(
        recommendation=recommendation, chunk=chunk, position=1, score=0.6, document_title=chunk.document.title,
        source=chunk.document.source, section=chunk.section_path, url=chunk.document.url,
    )
    return log


@pytest.fixture
def search_of_owner(owner):
    return _stored_search(owner)


def _page_urls(search: SearchLog) -> list[str]:
    chunk_id = search.recommendations.first().citations.first().chunk_id
    return [
        reverse("search:new"),
        reverse("search:history"),
        reverse("search:detail", args=[search.id]),
        reverse("search:export_markdown", args=[search.id]),
        reverse("search:export_json", args=[search.id]),
        reverse("search:guidelines"),
        reverse("search:chunk", args=[chunk_id]),
    ]


# --- access -----------------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_of_every_page_to_the_login(client, search_of_owner):
    for url in _page_urls(search_of_owner):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login") + "?next="), url
    vote_url = reverse("search:vote", args=[search_of_owner.recommendations.first().id])
    assert client.post(vote_url, {"value": 1}).status_code == 302
    assert client.get(reverse("search:guidelines_stream", args=["token"])).status_code == 302
    assert not FeedbackVote.objects.exists()


def test_it_reloads_an_expired_htmx_request_into_the_login_page(client, search_of_owner):
    response = client.get(reverse("search:history"), HTTP_HX_CURRENT_URL="http://testserver/zoekvragen/", **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("login") + "?next=/zoekvragen/"


def test_it_logs_in_and_out_in_dutch(client, owner):
    page = client.get(reverse("login"))
    assert '<html lang="nl">' in page.content.decode()
    assert "Gebruikersnaam" in page.content.decode()
    wrong = client.post(reverse("login"), {"username": "alice", "password": "fout"})
    assert "Voer een juiste gebruikersnaam en wachtwoord in" in wrong.content.decode()
    response = client.post(reverse("login"), {"username": "alice", "password": "password-alice"})
    assert response["Location"] == reverse("search:new")
    assert client.get(reverse("logout")).status_code == 405
    assert client.post(reverse("logout"))["Location"] == reverse("login")
    assert client.get(reverse("search:new")).status_code == 302


def test_it_keeps_the_admin_for_staff(client, owner, staff):
    client.force_login(owner)
    assert client.get("/admin/").status_code == 302
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_it_answers_404_for_another_users_search(client, colleague, search_of_owner):
    client.force_login(colleague)
    for name in ("search:detail", "search:export_markdown", "search:export_json"):
        assert client.get(reverse(name, args=[search_of_owner.id])).status_code == 404, name
    assert client.post(reverse("search:export_markdown", args=[search_of_owner.id])).status_code == 404


def test_it_refuses_wrong_methods(owner_client, search_of_owner):
    recommendation = search_of_owner.recommendations.first()
    assert owner_client.put(reverse("search:new")).status_code == 405
    assert owner_client.post(reverse("search:history")).status_code == 405
    assert owner_client.post(reverse("search:detail", args=[search_of_owner.id])).status_code == 405
    assert owner_client.delete(reverse("search:export_markdown", args=[search_of_owner.id])).status_code == 405
    assert owner_client.post(reverse("search:export_json", args=[search_of_owner.id])).status_code == 405
    assert owner_client.get(reverse("search:vote", args=[recommendation.id])).status_code == 405
    assert owner_client.put(reverse("search:guidelines")).status_code == 405
    assert owner_client.post(reverse("search:chunk", args=[recommendation.citations.first().chunk_id])).status_code == 405


def test_it_serves_a_partial_to_htmx_and_a_full_page_otherwise(owner_client, search_of_owner):
    for url in _page_urls(search_of_owner):
        if "advies." in url:
            continue  # downloads, not pages
        full = owner_client.get(url).content.decode()
        partial = owner_client.get(url, **HTMX).content.decode()
        assert '<html lang="nl">' in full and "htmx-2.0.11.min.js" in full, url
        assert "<html" not in partial and "<body" not in partial, url


def test_it_says_every_specialist_page_varies_with_hx_request(client, owner_client, search_of_owner):
    for url in _page_urls(search_of_owner):
        for headers in ({}, HTMX):
            assert "HX-Request" in owner_client.get(url, **headers).get("Vary", ""), url
    assert "HX-Request" in client.get(reverse("search:history"), **HTMX).get("Vary", "")


def test_it_serves_the_full_page_when_htmx_restores_history(owner_client):
    response = owner_client.get(reverse("search:history"), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in response.content.decode()


# --- new search -------------------------------------------------------------------------------


def test_it_shows_the_search_form_with_csrf_for_htmx(owner_client):
    html = owner_client.get(reverse("search:new")).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in html
    for field in ("situatie", "naam", "bedrijf", "functie", "sector", "verzuimduur", "budget"):
        assert f'name="{field}"' in html
    assert 'hx-post="/"' in html and 'method="post" action="/"' in html
    assert 'hx-indicator="#search-busy"' in html and "hx-disabled-elt" in html
    assert 'aria-describedby="id_situatie_helptext"' in html and 'id="id_situatie_helptext"' in html


def test_it_renders_a_fresh_search_as_a_full_page_without_javascript(owner_client, owner):
    response = owner_client.post(
        reverse("search:new"),
        {"situatie": f"Jan de Vries bij Acme BV: {SITUATION}", "naam": "Jan de Vries", "bedrijf": "Acme BV", "verzuimduur": "6 maanden"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "Werknemergerichte interventies voor Jan de Vries" in html
    for heading in ("Voordelen voor Jan de Vries", "Voordelen voor Acme BV", "Ondersteunende Nederlandse Richtlijnen", "Details &amp; Boekingsinformatie", "Scoreopbouw"):
        assert html.count(heading) >= 3, heading
    for rank in (1, 2, 3):
        assert f'<h3 class="card-title">{rank}. ' in html
    assert "Overweeg eventueel ook" in html and '<h3 class="card-title">4. ' in html
    assert "Rekentijd:" in html and "6 maanden verzuim" in html
    log = SearchLog.objects.get(user=owner)
    assert log.recommendations.filter(section="advies").count() == 5
    workplace = log.recommendations.filter(section="werkplek")
    assert workplace and "Preventieve/Werkplek" in html and all(rec.product_name in html for rec in workplace)
    stored = json.dumps([log.query, log.context, list(log.recommendations.values_list("reasoning", flat=True))])
    assert "Jan" not in stored and "Acme" not in stored


def test_it_swaps_in_the_results_for_htmx(owner_client):
    response = owner_client.post(reverse("search:new"), {"situatie": SITUATION}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith('<div id="search-area"')
    assert "Werknemergerichte interventies voor de werknemer" in html
    assert "Voordelen voor de werkgever" in html


def test_it_shows_which_misspelt_words_it_searched_as_what(owner_client):
    response = owner_client.post(reverse("search:new"), {"situatie": "medewerkster is 20 weken zwnager en werkt nachtdiensten"}, **HTMX)
    html = response.content.decode()
    assert "Gezocht met verbeterde spelling" in html and '<span class="typed">zwnager</span> → <strong>zwanger</strong>' in html
    assert "Zwangerschapsconsult werkplek" in html
    log = SearchLog.objects.latest("id")
    assert log.query == "medewerkster is 20 weken zwnager en werkt nachtdiensten"  # stored as typed
    markdown = owner_client.get(reverse("search:export_markdown", args=[log.id])).content.decode()
    assert "- Gezocht met verbeterde spelling: zwnager → zwanger" in markdown


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ("", "het veld is leeg"),
        ("   ", "het veld is leeg"),
        ("x" * 1001, "De beschrijving is te lang (1001 tekens)"),
        ("burn-out\x07klachten", "stuurtekens"),
    ],
)
def test_it_explains_invalid_input_in_dutch_next_to_the_field(owner_client, situation, message):
    for extra in ({}, HTMX):
        response = owner_client.post(reverse("search:new"), {"situatie": situation}, **extra)
        html = response.content.decode()
        assert response.status_code == 422
        assert '<p class="field-error" id="id_situatie_error">' in html and message in html
        assert 'aria-invalid="true"' in html
    assert not SearchLog.objects.exists()


def test_it_limits_the_optional_fields(owner_client):
    response = owner_client.post(reverse("search:new"), {"situatie": SITUATION, "naam": "x" * 101})
    assert response.status_code == 422
    assert "niet meer dan 100 tekens" in response.content.decode()


# --- stored searches, escaping ----------------------------------------------------------------


def test_it_reopens_a_search_without_running_it_again(owner_client, search_of_owner, monkeypatch):
    monkeypatch.setattr(services, "search_run_cached", lambda request: pytest.fail("the search ran again"))
    html = owner_client.get(reverse("search:detail", args=[search_of_owner.id])).content.decode()
    assert '<h3 class="card-title">1. Herstelcoaching</h3>' in html
    assert "Past bij langdurig verzuim." in html
    assert "Werknemergerichte interventies voor de werknemer" in html


def test_it_escapes_imported_and_typed_content(owner_client, owner):
    evil = Product.objects.create(
        name="Evil <b>product</b>", slug="evil", description="<script>alert(1)</script>", category="Preventie",
        phase="preventie", delivery="online", benefits_employee="<script>alert(1)</script>",
        benefits_employer="<script>alert(2)</script>", url="javascript:alert(3)", url_status="ok",
    )
    log = _stored_search(owner, query="<img src=x onerror=alert(1)>", product=evil, reasoning="<script>alert(4)</script>")
    html = owner_client.get(reverse("search:detail", args=[log.id])).content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>product" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'href="javascript:' not in html
    fresh = owner_client.post(reverse("search:new"), {"situatie": f"<img src=x onerror=alert(1)> {SITUATION}", "naam": "<i>Jan</i>"}).content.decode()
    assert "<img src=x" not in fresh and "<i>Jan</i>" not in fresh and "&lt;i&gt;Jan&lt;/i&gt;" in fresh


def test_it_labels_summaries_and_says_when_there_is_no_citation(owner_client, owner):
    log = _stored_search(owner)
    citation = Citation.objects.get(recommendation__search=log)
    citation.chunk.document.is_summary = True
    citation.chunk.document.save()
    assert '<span class="badge"' in owner_client.get(reverse("search:detail", args=[log.id])).content.decode()
    Citation.objects.filter(recommendation__search=log).delete()
    assert "Geen passende richtlijnpassage gevonden" in owner_client.get(reverse("search:detail", args=[log.id])).content.decode()


def test_it_links_citations_to_the_chunk_in_place_and_as_a_page(owner_client, search_of_owner):
    chunk_id = search_of_owner.recommendations.first().citations.first().chunk_id
    url = reverse("search:chunk", args=[chunk_id])
    html = owner_client.get(reverse("search:detail", args=[search_of_owner.id])).content.decode()
    assert f'hx-get="{url}"' in html and f'<a href="{url}">' in html
    chunk = GuidelineChunk.objects.get(id=chunk_id)
    partial = owner_client.get(url, **HTMX).content.decode()
    assert chunk.content.split()[0] in partial
    assert owner_client.get(reverse("search:chunk", args=[10**9])).status_code == 404


def test_it_shows_the_catalog_home_for_a_broken_link(owner_client, owner):
    product = Product.objects.get(name="Herstelcoaching")
    product.url_status = "broken"
    product.save()
    html = owner_client.get(reverse("search:detail", args=[_stored_search(owner, product=product).id])).content.decode()
    assert 'href="https://portal.evi360.nl/products" target="_blank" rel="noopener"' in html
    assert "(Directe link niet beschikbaar, zie algemene catalogus)" in html


# --- votes ------------------------------------------------------------------------------------


def test_it_records_and_changes_a_vote_without_reload(owner_client, owner, search_of_owner):
    recommendation = search_of_owner.recommendations.first()
    url = reverse("search:vote", args=[recommendation.id])
    first = owner_client.post(url, {"value": "1", "comment": "Goed idee"}, **HTMX)
    assert first.status_code == 200
    assert "<html" not in first.content.decode()
    assert 'value="1" class="vote-button" aria-pressed="true"' in first.content.decode()
    second = owner_client.post(url, {"value": "-1"}, **HTMX)
    assert 'value="-1" class="vote-button" aria-pressed="true"' in second.content.decode()
    vote = FeedbackVote.objects.get(user=owner, recommendation=recommendation)
    assert vote.value == -1
    page = owner_client.get(reverse("search:detail", args=[search_of_owner.id])).content.decode()
    assert 'value="-1" class="vote-button" aria-pressed="true"' in page


def test_it_redirects_back_to_the_card_after_a_vote_without_javascript(owner_client, search_of_owner):
    recommendation = search_of_owner.recommendations.first()
    response = owner_client.post(reverse("search:vote", args=[recommendation.id]), {"value": "1"})
    assert response["Location"] == f"{reverse('search:detail', args=[search_of_owner.id])}#aanbeveling-{recommendation.id}"
    assert "uw stem is opgeslagen" in owner_client.get(response["Location"]).content.decode()


def test_it_answers_404_for_a_vote_on_another_users_search(client, colleague, search_of_owner):
    client.force_login(colleague)
    recommendation = search_of_owner.recommendations.first()
    assert client.post(reverse("search:vote", args=[recommendation.id]), {"value": "1"}, **HTMX).status_code == 404
    assert client.post(reverse("search:vote", args=[recommendation.id]), {"value": "7"}).status_code == 404
    assert not FeedbackVote.objects.exists()


def test_it_explains_an_invalid_vote_in_dutch(owner_client, search_of_owner):
    response = owner_client.post(reverse("search:vote", args=[search_of_owner.recommendations.first().id]), {"value": "7"}, **HTMX)
    assert response.status_code == 422
    assert "Kies ‘Bruikbaar’ of ‘Niet bruikbaar’." in response.content.decode()


def test_it_shows_the_rate_limit_in_dutch(owner_client, search_of_owner, monkeypatch):
    monkeypatch.setattr(services, "VOTES_PER_MINUTE", 0)
    url = reverse("search:vote", args=[search_of_owner.recommendations.first().id])
    response = owner_client.post(url, {"value": "1"}, **HTMX)
    assert response.status_code == 429
    assert "Probeer het over een minuut opnieuw" in response.content.decode()
    redirected = owner_client.post(url, {"value": "1"}, follow=True)
    assert "Probeer het over een minuut opnieuw" in redirected.content.decode()
    assert not FeedbackVote.objects.exists()


# --- exports ----------------------------------------------------------------------------------


def test_it_exports_markdown_with_names_given_at_export_time(owner_client, search_of_owner):
    url = reverse("search:export_markdown", args=[search_of_owner.id])
    response = owner_client.post(url, {"naam": "Jan", "bedrijf": "Acme"})
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="interventieadvies-{search_of_owner.id}.md"'
    text = response.content.decode()
    assert "### 1. Herstelcoaching" in text
    assert "**Voordelen voor Jan:**" in text and "**Voordelen voor Acme:**" in text
    assert "**Ondersteunende Nederlandse Richtlijnen:**" in text and "**Details & Boekingsinformatie:** https://" in text
    by_link = owner_client.get(url + "?naam=Piet").content.decode()  # names in a URL are ignored
    assert "Piet" not in by_link and "Voordelen voor de werkgever" in by_link


def test_it_exports_json_with_sources(owner_client, search_of_owner):
    response = owner_client.get(reverse("search:export_json", args=[search_of_owner.id]))
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["search_id"] == search_of_owner.id
    assert data["recommendations"][0]["guidelines"][0]["chunk_id"] == data["bronnen"][0]["chunk_id"]
    assert data["bronnen"][0]["quote"]


# --- history ----------------------------------------------------------------------------------


def test_it_lists_only_own_searches_twenty_per_page(owner_client, owner, colleague):
    for number in range(25):
        SearchLog.objects.create(user=owner, query=f"eigen zoekvraag {number:02d}", top_k=3)
    SearchLog.objects.create(user=colleague, query="zoekvraag van bob", top_k=3)
    first = owner_client.get(reverse("search:history")).content.decode()
    second = owner_client.get(reverse("search:history") + "?page=2", **HTMX).content.decode()
    assert first.count('class="history-item"') == 20 and second.count('class="history-item"') == 5
    assert "eigen zoekvraag 24" in first and "eigen zoekvraag 00" in second
    assert "zoekvraag van bob" not in first + second
    assert "Pagina 2 van 2" in second and "<html" not in second


# --- guidelines -------------------------------------------------------------------------------


def test_it_answers_a_guideline_question_with_citations(owner_client):
    html = owner_client.post(reverse("search:guidelines"), {"q": "Wat moet er in het plan van aanpak staan?"}).content.decode()
    assert "Antwoord" in html and 'id="bron-1"' in html and 'href="#bron-1"' in html
    assert "hx-trigger=\"load\"" not in html


def test_it_explains_an_empty_question_in_dutch(owner_client):
    response = owner_client.post(reverse("search:guidelines"), {"q": ""}, **HTMX)
    assert response.status_code == 422 and "het veld is leeg" in response.content.decode()
    assert owner_client.get(reverse("search:guidelines")).status_code == 200


def test_it_keeps_the_guideline_question_out_of_the_url(owner_client):
    page = owner_client.get(reverse("search:guidelines")).content.decode()
    assert 'method="post"' in page and "hx-post=" in page and "hx-get=" not in page and "csrfmiddlewaretoken" in page
    ignored = owner_client.get(reverse("search:guidelines") + "?q=plan+van+aanpak").content.decode()
    assert "Antwoord" not in ignored  # a question in a URL is not answered (nor logged by its answer)
    assert owner_client.post(reverse("search:guidelines_stream", args=["token"])).status_code == 405


def test_it_answers_with_the_generated_answer_at_once_without_javascript(owner_client, settings, httpserver):
    """Without JavaScript there is no stream to read: the plain POST waits for the whole generated answer."""
    settings.LLM_API_KEY, settings.LLM_BASE_URL, settings.LLM_MODEL = "test-key", httpserver.url_for("/v1"), "fake"
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake",
             "choices": [{"index": 0, "delta": {"content": "Gegenereerd antwoord [1]"}, "finish_reason": None}]}
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n", content_type="text/event-stream"
    )
    page = owner_client.post(reverse("search:guidelines"), {"q": "plan van aanpak"}).content.decode()
    assert "Gegenereerd antwoord" in page and "sse-connect" not in page
    assert len(httpserver.log) == 1
