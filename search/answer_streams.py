"""Guideline answers streamed to the page as Server-Sent Events.

The question travels in the POST that asks it and waits in the specialist's own session under a
one-time token; the browser's EventSource then GETs the stream by that token. So a question about
someone's health never appears in a URL, a browser history or an access log, and only the session
that asked can read the answer.
"""

import logging
import secrets
import threading
from collections.abc import Iterator
from functools import cache

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.html import escape

from search.answers import Answer, AnswerPiece, guideline_answer_stream
from search.pipeline.errors import SearchInputError

SESSION_KEY = "answer_streams"
PENDING_MAX = 5  # questions asked but not yet streamed, per session (older ones are dropped)
logger = logging.getLogger(__name__)

PIECE_EVENT = "deel"
FINAL_EVENT = "klaar"
EXPIRED = "Dit antwoord is al opgehaald of verlopen. Stel de vraag opnieuw."
FAILED = "Het antwoord kon nu niet worden opgesteld. Probeer het over een ogenblik opnieuw."


def answer_stream_open(session, question: str) -> str:
    """Park a validated question in the session; returns the token its stream is fetched by."""
    pending = dict(session.get(SESSION_KEY) or {})
    while len(pending) >= PENDING_MAX:
        pending.pop(next(iter(pending)))
    token = secrets.token_urlsafe(16)
    pending[token] = question
    session[SESSION_KEY] = pending
    return token


def answer_stream_take(session, token: str) -> str | None:
    """The parked question for this token, once; None when it was taken already or never parked here."""
    pending = dict(session.get(SESSION_KEY) or {})
    question = pending.pop(token, None)
    if question is not None:
        session[SESSION_KEY] = pending
    return question


def answer_events(question: str | None, *, request) -> Iterator[str]:
    """The SSE events of one answer: a `deel` per text piece, then `klaar` with the whole answer panel
    (validated text and citations), which the page swaps in place of the streamed text."""
    if question is None:
        yield sse_event(FINAL_EVENT, render_to_string("search/_answer_unavailable.html", {"message": EXPIRED}, request=request))
        return
    generating = _generation_slots().acquire(blocking=False)
    try:
        # With every generation slot of this process taken, the passages are quoted at once instead of
        # waiting for the LLM: open streams may hold only some of a worker's threads, never all of them.
        for item in guideline_answer_stream(question, generate=None if generating else False):
            if isinstance(item, AnswerPiece):
                yield sse_event(PIECE_EVENT, escape(item.text))
            elif isinstance(item, Answer):
                yield sse_event(FINAL_EVENT, render_to_string("search/_answer.html", {"answer": item}, request=request))
    except SearchInputError as error:
        yield sse_event(FINAL_EVENT, render_to_string("search/_answer_unavailable.html", {"message": str(error)}, request=request))
    except Exception:
        # The stream has begun, so no error page can follow: end it with a Dutch message, or the
        # browser would reconnect and be told that this answer was already fetched.
        logger.exception("guideline answer stream failed")
        yield sse_event(FINAL_EVENT, render_to_string("search/_answer_unavailable.html", {"message": FAILED}, request=request))
    finally:
        if generating:
            _generation_slots().release()


@cache
def _generation_slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(settings.ANSWER_STREAMS_PER_PROCESS)


def sse_event(name: str, data: str) -> str:
    """One event in the text/event-stream format; every line of the data gets its own `data:` field."""
    lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return f"event: {name}\n" + "".join(f"data: {line}\n" for line in lines) + "\n"

