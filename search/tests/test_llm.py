"""The LLM path end to end against a local fake OpenAI-compatible server (pytest-httpserver)."""

import json
import time

import pytest
from werkzeug import Response

from guidelines.models import InterventionMapping
from search.answers import guideline_answer
from search.models import SearchLog
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run
from search.services import search_perform

pytestmark = pytest.mark.django_db

SITUATION = "Werknemer met burn-out klachten, 6 maanden verzuim, management functie"


def _completion(content: str) -> Response:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return Response(json.dumps(body), content_type="application/json")


@pytest.fixture
def llm(settings, httpserver):
    settings.LLM_API_KEY = "test-key"
    settings.LLM_BASE_URL = httpserver.url_for("/v1")
    settings.LLM_MODEL = "fake"
    settings.LLM_TIMEOUT_S = 1.0
    settings.RANKER = "auto"
    settings.LLM_GRADING = False  # the grading tests below switch it on; the others talk to the ranker only
    return httpserver


def _prompt_of(request) -> dict:
    return json.loads(json.loads(request.get_data())["messages"][1]["content"])


def _rank_everything(request) -> Response:
    """A well-behaved LLM: prefers the first candidate, adds an unknown id, an out-of-range score and fake arithmetic."""
    candidates = _prompt_of(request)["kandidaten"]
    rankings = [
        {"product_id": c["product_id"], "impact": 0.5, "fit": 0.5, "guidelines": 0.5, "feasibility": 0.5, "relevance": 99,
         "reasoning": f"LLM-onderbouwing voor {c['naam']}.", "guideline_titles": ["Niet bestaande richtlijn"]}
        for c in candidates
    ]
    rankings[0].update({"impact": 7, "fit": 1.0, "guidelines": 1.0, "feasibility": -3})
    rankings.append({"product_id": 999999, "impact": 1, "fit": 1, "guidelines": 1, "feasibility": 1, "reasoning": "verzonnen"})
    return _completion(json.dumps({"rankings": rankings}))


def test_it_ranks_with_the_llm_and_validates_what_it_says(llm):
    llm.expect_request("/v1/chat/completions", method="POST").respond_with_handler(_rank_everything)
    outcome = search_run(SearchRequest(query=SITUATION, top_k=5))
    assert outcome.ranker == "llm" and outcome.fallback_reason == ""
    top = outcome.recommendations[0]
    assert top.scores == {"impact": 1.0, "fit": 1.0, "guidelines": 1.0, "feasibility": 0.0}  # clamped
    assert top.relevance == pytest.approx(0.9)  # recomputed: 0.4 + 0.3 + 0.2 + 0, never the LLM's 99
    assert all(item.product.id != 999999 for item in outcome.recommendations)
    assert top.reasoning.startswith("LLM-onderbouwing")


def test_it_never_sends_the_employees_or_companys_name(llm, owner):
    llm.expect_request("/v1/chat/completions", method="POST").respond_with_handler(_rank_everything)
    search_perform(
        request=SearchRequest(query="Petra de Vries van Bakkerij Korf is 6 maanden ziek met burn-out", employee_name="Petra de Vries", company_name="Bakkerij Korf"),
        user=owner,
    )
    sent = llm.log[0][0].get_data(as_text=True)
    assert "Petra" not in sent and "Korf" not in sent
    assert "[werknemer]" in sent


def test_it_keeps_criteria_scores_for_candidates_the_llm_skipped(llm):
    def only_first(request):
        first = _prompt_of(request)["kandidaten"][0]
        return _completion(json.dumps({"rankings": [{"product_id": first["product_id"], "impact": 0.1, "fit": 0.1, "guidelines": 0.1, "feasibility": 0.1}]}))

    llm.expect_request("/v1/chat/completions").respond_with_handler(only_first)
    outcome = search_run(SearchRequest(query=SITUATION, top_k=5))
    assert outcome.ranker == "llm"
    assert any(item.scores["impact"] > 0.1 for item in outcome.recommendations)


@pytest.mark.parametrize(
    ("respond", "reason"),
    [
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_data("{niet: json", content_type="application/json"), "llm:"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _completion("dit is geen json")), "invalid JSON"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _completion('{"rankings": "geen lijst"}')), "rankings"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_data("kapot", status=500), "HTTP 500"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_handler(lambda r: (time.sleep(2.5), _completion("{}"))[1]), "1s"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_json({}), "llm:"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_json({"id": "x", "object": "chat.completion", "created": 0, "model": "fake", "choices": None}), "llm:"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _completion('{"rankings": [{"product_id": 1' + "0" * 5000 + "}]}")), "invalid JSON"),
        (lambda server: server.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _completion('{"rankings": [{"product_id": 1e400, "impact": 1}]}')), "no usable rankings"),
    ],
    ids=["malformed-body", "malformed-content", "wrong-shape", "http-500", "timeout", "empty-object", "choices-null", "5000-digit-id", "overflowing-id"],
)
def test_it_falls_back_to_criteria_and_records_why(llm, owner, respond, reason):
    respond(llm)
    outcome = search_perform(request=SearchRequest(query=SITUATION), user=owner)
    assert outcome.ranker == "criteria"
    assert len(outcome.recommendations) == 3
    log = SearchLog.objects.get(id=outcome.search_id)
    assert log.ranker == "criteria" and reason in log.fallback_reason


def test_it_keeps_prevention_out_for_long_absence_whatever_the_llm_says(llm):
    def love_prevention(request):
        rankings = [
            {"product_id": c["product_id"], "impact": 1.0 if "preventie" in c["naam"].lower() else 0.2, "fit": 1, "guidelines": 1, "feasibility": 1}
            for c in _prompt_of(request)["kandidaten"]
        ]
        return _completion(json.dumps({"rankings": rankings}))

    llm.expect_request("/v1/chat/completions").respond_with_handler(love_prevention)
    outcome = search_run(SearchRequest(query="Medewerker al 8 maanden ziek thuis met burn-out klachten, preventie helpt niet meer"))
    assert "Burn-out preventie workshop" not in [item.product.name for item in outcome.recommendations]


def test_it_widens_a_weak_query_with_a_hypothetical_product_description(llm, settings):
    """HyDE is the rewrite after the interventiewijzer; here the wijzer has no lines, so HyDE is the first that applies."""
    InterventionMapping.objects.all().delete()
    settings.SEARCH_SIMILARITY_FLOOR = 0.6
    settings.SEARCH_WEAK_FLOOR = 0.3
    settings.SEARCH_LEXICAL_FLOOR = 1000.0
    settings.RANKER = "criteria"
    llm.expect_request("/v1/chat/completions").respond_with_handler(
        lambda r: _completion(json.dumps({"beschrijving": "Budgetcoaching en schuldhulp voor werknemers met geldzorgen door gokken."}))
    )
    outcome = search_run(SearchRequest(query="Medewerker gokt en heeft daardoor geldproblemen"))
    assert outcome.hyde_used and not outcome.expanded
    assert outcome.retrieval["rewrites"] >= 1 and outcome.retrieval["hyde_used"]
    assert "Hulp bij financiële problemen" in [item.product.name for item in outcome.recommendations]


def _streamed(content: str) -> Response:
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake",
             "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}]}
    return Response(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n", content_type="text/event-stream")


def test_it_answers_guideline_questions_with_validated_llm_citations(llm):
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _streamed("De werkgever moet tijdig contact houden [1] [42]."))
    result = guideline_answer("Wanneer moet een plan van aanpak worden opgesteld?")
    assert result.generated and result.answer == "De werkgever moet tijdig contact houden [1]."
    assert len(result.citations) >= 2  # the one valid citation, completed with the next best passage


def test_it_falls_back_to_the_extractive_answer_when_the_llm_cites_nothing_valid(llm):
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda r: _streamed("Verzonnen [77]."))
    result = guideline_answer("Wanneer moet een plan van aanpak worden opgesteld?")
    assert not result.generated
    assert result.answer.startswith("Volgens de richtlijnen")
    assert "valid citations" in result.fallback_reason


def test_it_keeps_criteria_scores_where_the_llm_writes_no_number(llm, settings):
    def words_for_scores(request):
        rankings = [{"product_id": str(c["product_id"]), "impact": "hoog", "fit": None, "guidelines": True, "feasibility": float("nan")}
                    for c in _prompt_of(request)["kandidaten"]]
        return _completion(json.dumps({"rankings": rankings}))

    llm.expect_request("/v1/chat/completions").respond_with_handler(words_for_scores)
    settings.RANKER = "criteria"
    baseline = {item.product.name: item.scores for item in search_run(SearchRequest(query=SITUATION)).recommendations}
    settings.RANKER = "auto"
    outcome = search_run(SearchRequest(query=SITUATION))
    assert outcome.ranker == "llm"
    for item in outcome.recommendations:
        assert all(0.0 <= value <= 1.0 for value in item.scores.values())
        if item.product.name in baseline:
            assert item.scores == baseline[item.product.name]


def test_it_gives_up_on_an_endpoint_that_drips_its_answer(llm, settings, owner, drip_server):
    """LLM_TIMEOUT_S bounds the whole answer, not each read: a server sending a byte every 0.2 s for
    a minute is cut off, the search falls back to criteria, and the connection is closed early."""
    body = _completion("{}").get_data()
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    server = drip_server(head, body, 0.2)
    settings.LLM_BASE_URL = f"http://127.0.0.1:{server.port}/v1"
    outcome = search_perform(request=SearchRequest(query=SITUATION), user=owner)
    assert outcome.ranker == "criteria" and len(outcome.recommendations) == 3
    assert "no complete answer within 1s" in SearchLog.objects.get(id=outcome.search_id).fallback_reason
    assert server.cut_off.wait(timeout=30)  # the client hung up long before the body was complete


def test_it_asks_the_model_named_for_each_use(llm, settings):
    settings.LLM_MODELS = {**settings.LLM_MODELS, "ranking": "fake-ranking"}
    llm.expect_request("/v1/chat/completions").respond_with_handler(_rank_everything)
    outcome = search_run(SearchRequest(query=SITUATION))
    assert outcome.ranker == "llm"
    assert json.loads(llm.log[0][0].get_data())["model"] == "fake-ranking"
    cited = [c for item in outcome.recommendations for c in item.citations]
    assert cited and all(c.used_in_prompt for c in cited)  # the prompt named their documents


def _system_of(request) -> str:
    return json.loads(request.get_data())["messages"][0]["content"]


def test_it_drops_a_candidate_the_llm_grades_irrelevant(llm, settings):
    settings.LLM_GRADING = True
    graded = []

    def answer(request):
        if "beoordeling" not in _system_of(request):
            return _rank_everything(request)
        offered = _prompt_of(request)["kandidaten"]
        graded.extend(offered)
        verdicts = [{"product_id": c["product_id"], "relevant": i != 0} for i, c in enumerate(offered)]
        return _completion(json.dumps({"beoordeling": verdicts + [{"product_id": 999999, "relevant": True}]}))

    llm.expect_request("/v1/chat/completions").respond_with_handler(answer)
    outcome = search_run(SearchRequest(query=SITUATION, top_k=5))
    assert outcome.retrieval["graded"] == {"passed": len(graded) - 1, "failed": 1, "by": "llm"}
    names = [item.product.name for item in outcome.recommendations + outcome.workplace_suggestions]
    assert graded[0]["naam"] not in names and graded[1]["naam"] in names + [graded[1]["naam"]]
    assert json.loads(llm.log[0][0].get_data())["model"] == "fake"  # no LLM_MODEL_GRADING: the general model


@pytest.mark.parametrize("verdicts", [{"beoordeling": [{"product_id": 999999, "relevant": False}]}, {"beoordeling": [{"product_id": 1, "relevant": "nee"}]}, {"oordeel": "ja"}])
def test_it_keeps_the_offline_grade_when_the_llm_grades_nothing_usable(llm, settings, verdicts):
    settings.LLM_GRADING, settings.RANKER = True, "criteria"
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda request: _completion(json.dumps(verdicts)))
    outcome = search_run(SearchRequest(query=SITUATION))
    assert outcome.retrieval["graded"]["by"] == "drempels" and outcome.retrieval["graded"]["passed"] >= 3
    assert len(outcome.recommendations) == 3


def test_it_takes_the_llms_sub_queries_once_validated(llm, settings):
    settings.RANKER = "criteria"
    settings.LLM_MODELS = {**settings.LLM_MODELS, "queries": "fake-queries"}
    proposed = [
        {"tekst": SITUATION, "aspect": "klacht"},  # the situation itself: no sub-query
        {"tekst": 42},
        {"tekst": "burn-out " * 40},  # too long
        {"tekst": "Burn-out  klachten", "aspect": "klacht"},
        {"tekst": "Leidinggevende functie", "aspect": "onzin"},
        {"tekst": "Een half jaar verzuim", "aspect": "fase"},
        {"tekst": "burn-out klachten"},  # the same once lowercased
        {"tekst": "Terugkeer naar werk"},
        {"tekst": "Vijfde deelvraag"},
    ]
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda request: _completion(json.dumps({"deelvragen": proposed})))
    outcome = search_run(SearchRequest(query=SITUATION, multi_query=True))
    assert outcome.retrieval["queries"] == [SITUATION, "Burn-out klachten", "Leidinggevende functie", "Een half jaar verzuim", "Terugkeer naar werk"]
    assert outcome.retrieval["facets"] == ["situatie", "klacht", "werk", "fase", "klacht"]
    assert json.loads(llm.log[0][0].get_data())["model"] == "fake-queries"
    assert outcome.recommendations


def test_it_falls_back_to_the_situations_clauses_when_the_llm_proposes_nothing(llm, settings):
    settings.RANKER = "criteria"
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda request: Response("kapot", status=500))
    outcome = search_run(SearchRequest(query=SITUATION, multi_query=True))
    assert outcome.retrieval["queries"][1:] == ["Werknemer met burn-out klachten", "6 maanden verzuim", "management functie"]
