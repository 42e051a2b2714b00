"""Guideline answers as they are written: the offline pieces, the LLM stream with its deadline and
validation, and the Server-Sent Events endpoint the Richtlijnen page reads."""

import json

import pytest
from django.urls import reverse
from werkzeug import Response

from search.answer_streams import (
    FINAL_EVENT,
    PIECE_EVENT,
    answer_stream_open,
    sse_event,
)
from search.answers import Answer, AnswerPiece, guideline_answer_stream, renumbered

pytestmark = pytest.mark.django_db

QUESTION = "Wanneer moet een plan van aanpak worden opgesteld?"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _stream_of(*pieces: str) -> Response:
    """A streamed chat completion as an OpenAI-compatible server sends it."""
    events = [
        {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "fake", "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
        for p in pieces
    ]
    body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    return Response(body, content_type="text/event-stream")


@pytest.fixture
def llm(settings, httpserver):
    settings.LLM_API_KEY = "test-key"
    settings.LLM_BASE_URL = httpserver.url_for("/v1")
    settings.LLM_MODEL = "fake"
    settings.LLM_MODELS = {**settings.LLM_MODELS, "answers": "fake-answers"}
    settings.LLM_TIMEOUT_S = 1.0
    return httpserver


def _events(response) -> list[tuple[str, str]]:
    """The (event, data) pairs of a text/event-stream body."""
    body = b"".join(response.streaming_content).decode()
    events = []
    for block in body.strip().split("\n\n"):
        lines = block.split("\n")
        name = lines[0].removeprefix("event: ")
        events.append((name, "\n".join(line.removeprefix("data: ") for line in lines[1:])))
    return events


def test_it_streams_the_offline_answer_in_pieces_that_add_up_to_the_final_answer(settings):
    settings.LLM_API_KEY = ""
    items = list(guideline_answer_stream(QUESTION))
    pieces, final = items[:-1], items[-1]
    assert len(pieces) > 3 and all(isinstance(p, AnswerPiece) for p in pieces)
    assert isinstance(final, Answer) and final.citations
    assert "".join(p.text for p in pieces) == final.answer


def test_it_streams_a_generated_answer_and_renumbers_its_citations_to_the_ones_it_keeps(llm):
    llm.expect_request("/v1/chat/completions").respond_with_handler(
        lambda request: _stream_of("Het plan komt er uiterlijk in week 8 ", "[3]; de bedrijfsarts adviseert ", "[1] en [9].")
    )
    items = list(guideline_answer_stream(QUESTION))
    assert "".join(p.text for p in items[:-1]) == "Het plan komt er uiterlijk in week 8 [3]; de bedrijfsarts adviseert [1] en [9]."
    final = items[-1]
    assert final.generated
    assert final.answer == "Het plan komt er uiterlijk in week 8 [1]; de bedrijfsarts adviseert [2] en."
    sent = json.loads(llm.log[0][0].get_data())
    assert sent["stream"] is True and sent["model"] == "fake-answers"  # the model named for answers
    offered = sent["messages"][1]["content"]
    assert final.citations[0].section in offered and all(c.used_in_prompt for c in final.citations)


def test_it_keeps_the_extractive_answer_when_the_stream_breaks_off(llm):
    llm.expect_request("/v1/chat/completions").respond_with_handler(
        lambda request: Response('data: {"choices": [{"index": 0, "delta": {"content": "Het plan [1]"}}]}\n\ndata: {kapot\n\n', content_type="text/event-stream")
    )
    final = list(guideline_answer_stream(QUESTION))[-1]
    assert not final.generated and final.answer.startswith("Volgens de richtlijnen")
    assert final.fallback_reason.startswith("llm:")
    assert not any(c.used_in_prompt for c in final.citations)


def test_it_gives_up_on_a_stream_that_drips_past_the_deadline(settings, drip_server):
    chunk = 'data: {"choices": [{"index": 0, "delta": {"content": "traag "}}]}\n\n'
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
    dripping = drip_server(head, (chunk * 200).encode(), 0.01)
    settings.LLM_API_KEY, settings.LLM_BASE_URL, settings.LLM_TIMEOUT_S = "k", f"http://127.0.0.1:{dripping.port}/v1", 0.6
    final = list(guideline_answer_stream(QUESTION))[-1]
    assert not final.generated
    assert "within" in final.fallback_reason


def test_it_renumbers_markers_in_order_of_use_and_drops_those_to_passages_not_offered():
    assert renumbered("A [2]. B [4], C [2] en D [7].", 4) == ("A [1]. B [2], C [1] en D.", [2, 4])
    assert renumbered("Zonder verwijzing.", 4) == ("Zonder verwijzing.", [])


def test_it_writes_each_line_of_the_data_as_its_own_field():
    assert sse_event("deel", "a\nb") == "event: deel\ndata: a\ndata: b\n\n"


def test_it_parks_the_question_in_the_session_and_streams_its_answer_once(owner_client, settings):
    settings.LLM_API_KEY = ""
    page = owner_client.post(reverse("search:guidelines"), {"q": QUESTION}, **HTMX).content.decode()
    assert 'sse-connect="/richtlijnen/stroom/' in page
    stream_url = page.split('sse-connect="', 1)[1].split('"', 1)[0]
    assert "plan" not in stream_url.lower()  # the question never travels in the URL
    response = owner_client.get(stream_url)
    assert response["Content-Type"].startswith("text/event-stream")
    events = _events(response)
    assert {name for name, _ in events[:-1]} == {PIECE_EVENT}
    assert events[-1][0] == FINAL_EVENT and "Bronnen" in events[-1][1] and 'id="bron-1"' in events[-1][1]
    again = _events(owner_client.get(stream_url))
    assert again[0][0] == FINAL_EVENT and "al opgehaald of verlopen" in again[0][1]


def test_it_does_not_stream_a_question_parked_in_someone_elses_session(owner_client, client, colleague):
    session = owner_client.session
    token = answer_stream_open(session, QUESTION)
    session.save()
    client.force_login(colleague)
    events = _events(client.get(reverse("search:guidelines_stream", args=[token])))
    assert events == [(FINAL_EVENT, events[0][1])] and "al opgehaald of verlopen" in events[0][1]


def test_it_escapes_the_streamed_text(llm, owner_client):
    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda request: _stream_of("<script>x</script> [1]"))
    page = owner_client.post(reverse("search:guidelines"), {"q": QUESTION}, **HTMX).content.decode()
    events = _events(owner_client.get(page.split('sse-connect="', 1)[1].split('"', 1)[0]))
    assert "<script>" not in "".join(data for _, data in events)
    assert "&lt;script&gt;" in events[0][1]


def test_it_quotes_the_passages_at_once_when_every_generation_slot_is_taken(llm, owner_client, settings):
    from search.answer_streams import _generation_slots

    llm.expect_request("/v1/chat/completions").respond_with_handler(lambda request: _stream_of("Gegenereerd [1]."))
    page = owner_client.post(reverse("search:guidelines"), {"q": QUESTION}, **HTMX).content.decode()
    slots = _generation_slots()
    taken = 0
    while slots.acquire(blocking=False):
        taken += 1
    try:
        events = _events(owner_client.get(page.split('sse-connect="', 1)[1].split('"', 1)[0]))
    finally:
        for _ in range(taken):
            slots.release()
    assert taken == settings.ANSWER_STREAMS_PER_PROCESS
    assert "Volgens de richtlijnen" in events[-1][1] and "Gegenereerd" not in events[-1][1]
    assert len(llm.log) == 0  # nobody waited for the LLM


def test_it_ends_the_stream_with_a_dutch_message_when_the_answer_fails(owner_client, settings):
    from django.db import connection

    settings.LLM_API_KEY = ""
    page = owner_client.post(reverse("search:guidelines"), {"q": QUESTION}, **HTMX).content.decode()
    response = owner_client.get(page.split('sse-connect="', 1)[1].split('"', 1)[0])
    with connection.cursor() as cursor:  # the database gives up on the passage search, as under overload
        cursor.execute("SET LOCAL statement_timeout = '1ms'")
    events = _events(response)
    assert events == [(FINAL_EVENT, events[0][1])] and "kon nu niet worden opgesteld" in events[0][1]
