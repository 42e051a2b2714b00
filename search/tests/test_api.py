import pytest

from search.services import api_token_create

pytestmark = pytest.mark.django_db


def _post(client, path: str, body: dict, **headers):
    return client.post(path, body, content_type="application/json", **headers)


def test_it_requires_a_login_or_a_token(client):
    assert _post(client, "/api/recommendations", {"query": "rugpijn"}).status_code == 401
    assert _post(client, "/api/guidelines/answer", {"question": "plan van aanpak"}, HTTP_AUTHORIZATION="Bearer verkeerd").status_code == 401


def test_it_answers_with_a_bearer_token(client, owner):
    _, token = api_token_create(user=owner, name="koppeling")
    response = _post(client, "/api/recommendations", {"query": "Medewerker 10 weken ziek met rugklachten", "top_k": 4}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    data = response.json()
    assert len(data["recommendations"]) == 4 and data["search_id"]
    assert owner.api_tokens.get().last_used_at is not None


def test_it_notes_when_a_token_was_last_used_to_the_minute(client, owner):
    from datetime import timedelta

    _, token = api_token_create(user=owner, name="koppeling")
    ask = lambda: _post(client, "/api/guidelines/answer", {"question": "Wanneer moet het plan van aanpak klaar zijn?"}, HTTP_AUTHORIZATION=f"Bearer {token}")  # noqa: E731
    assert ask().status_code == 200
    first = owner.api_tokens.get().last_used_at
    assert ask().status_code == 200
    assert owner.api_tokens.get().last_used_at == first  # no write for every call
    owner.api_tokens.update(last_used_at=first - timedelta(minutes=2))
    assert ask().status_code == 200
    assert owner.api_tokens.get().last_used_at > first


def test_it_answers_for_a_logged_in_session(client, owner):
    client.force_login(owner)
    response = _post(client, "/api/guidelines/answer", {"question": "Wanneer moet het plan van aanpak klaar zijn?"})
    assert response.status_code == 200
    assert len(response.json()["citations"]) >= 2


@pytest.mark.parametrize(
    ("params", "message"),
    [({"query": ""}, "leeg"), ({"query": "x" * 1001}, "te lang"), ({"query": "rug\x07pijn"}, "stuurtekens"), ({"query": "rugpijn", "top_k": 9}, "top_k"),
     ({"query": "rugpijn", "top_k": "²"}, "top_k"), ({"query": "rugpijn", "top_k": "①"}, "top_k"), ({"query": "rugpijn", "mode": "snel"}, "modus"),
     ({"query": ["geen", "tekst"]}, "Ongeldige JSON-invoer (query)"), ({"query": "rugpijn", "budget": "veel"}, "geen bedrag")],
)
def test_it_refuses_bad_input_with_a_dutch_400(client, owner, params, message):
    client.force_login(owner)
    response = _post(client, "/api/recommendations", params)
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_it_refuses_a_bad_guideline_question_with_a_dutch_400(client, owner):
    client.force_login(owner)
    response = _post(client, "/api/guidelines/answer", {"question": "   "})
    assert response.status_code == 400 and "leeg" in response.json()["detail"]
    response = client.post("/api/guidelines/answer", "geen json", content_type="application/json")
    assert response.status_code == 400 and "Ongeldige JSON-invoer" in response.json()["detail"]


def test_it_never_takes_a_situation_or_question_from_the_url(client, owner):
    from search.models import SearchLog

    client.force_login(owner)
    assert client.get("/api/recommendations", {"q": "burn-out van Jan"}).status_code == 405
    assert client.get("/api/guidelines/answer", {"q": "plan van aanpak"}).status_code == 405
    assert not SearchLog.objects.exists()  # and a GET writes no history


def test_it_tells_browsers_and_proxies_to_keep_no_copy_of_advice(client, owner):
    client.force_login(owner)
    for response in (client.get("/"), _post(client, "/api/recommendations", {"query": "rugklachten"})):
        assert "no-store" in response.headers["Cache-Control"] and "private" in response.headers["Cache-Control"]


def test_it_reports_health_without_login_or_personal_data(client):
    response = client.get("/health/")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok" and data["database"] == "ok" and data["embedding_model"]
    assert client.post("/health/").status_code == 405


def test_it_serves_the_openapi_schema_and_docs_only_after_login(client, owner):
    for path in ("/api/openapi.json", "/api/docs"):
        response = client.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/inloggen/"), path
    client.force_login(owner)
    assert client.get("/api/docs").status_code == 200
    schema = client.get("/api/openapi.json").json()
    assert "/api/recommendations" in schema["paths"] and "/api/guidelines/answer" in schema["paths"]
