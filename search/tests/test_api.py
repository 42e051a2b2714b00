import pytest

from search.services import api_token_create

pytestmark = pytest.mark.django_db


def test_it_requires_a_login_or_a_token(client):
    assert client.get("/api/recommendations", {"q": "rugpijn"}).status_code == 401
    assert client.get("/api/guidelines/answer", {"q": "plan van aanpak"}, HTTP_AUTHORIZATION="Bearer verkeerd").status_code == 401


def test_it_answers_with_a_bearer_token(client, owner):
    _, token = api_token_create(user=owner, name="koppeling")
    response = client.get("/api/recommendations", {"q": "Medewerker 10 weken ziek met rugklachten", "top_k": "4"}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200
    data = response.json()
    assert len(data["recommendations"]) == 4 and data["search_id"]
    assert owner.api_tokens.get().last_used_at is not None


def test_it_answers_for_a_logged_in_session(client, owner):
    client.force_login(owner)
    response = client.get("/api/guidelines/answer", {"q": "Wanneer moet het plan van aanpak klaar zijn?"})
    assert response.status_code == 200
    assert len(response.json()["citations"]) >= 2


@pytest.mark.parametrize(
    ("params", "message"),
    [({"q": ""}, "leeg"), ({"q": "x" * 1001}, "te lang"), ({"q": "rug\x07pijn"}, "stuurtekens"), ({"q": "rugpijn", "top_k": "9"}, "top_k"), ({"q": "rugpijn", "top_k": "²"}, "top_k"), ({"q": "rugpijn", "top_k": "①"}, "top_k"), ({"q": "rugpijn", "mode": "snel"}, "modus")],
)
def test_it_refuses_bad_input_with_a_dutch_400(client, owner, params, message):
    client.force_login(owner)
    response = client.get("/api/recommendations", params)
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_it_refuses_a_bad_guideline_question_with_a_dutch_400(client, owner):
    client.force_login(owner)
    response = client.get("/api/guidelines/answer", {"q": "   "})
    assert response.status_code == 400 and "leeg" in response.json()["detail"]


def test_it_serves_the_openapi_schema(client):
    schema = client.get("/api/openapi.json").json()
    assert "/api/recommendations" in schema["paths"] and "/api/guidelines/answer" in schema["paths"]
