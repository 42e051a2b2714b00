"""The optional LLM behind an OpenAI-compatible endpoint: JSON chat calls with hard timeouts.

Every caller treats a failure as "no LLM this time" and falls back to the offline path, so
nothing here may raise anything but LLMError.
"""

import json
import logging
import math
import queue
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings

logger = logging.getLogger(__name__)


class LLMError(Exception):
    """The LLM did not give a usable answer (timeout, HTTP error, malformed JSON); the message says which."""


def llm_configured() -> bool:
    return bool(settings.LLM_API_KEY)


# Calls run here so that a whole answer has a deadline: the client's timeout bounds each read, and an
# endpoint that drips one byte per second would otherwise hold a search (and a web thread) for minutes.
_CALLS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="llm-call")


def model_for(use: str) -> str:
    """The model for one use (ranking, hyde, queries, grading, answers): LLM_MODEL_<USE>, else LLM_MODEL."""
    return settings.LLM_MODELS.get(use) or settings.LLM_MODEL


def _client(timeout: float):
    import openai

    return openai.OpenAI(api_key=settings.LLM_API_KEY, base_url=settings.LLM_BASE_URL or None, timeout=timeout, max_retries=0)


def chat_json(*, system: str, user: str, timeout: float, use: str, max_tokens: int = 1500) -> dict:
    """One chat completion that must return a JSON object, complete within `timeout` seconds."""
    import openai

    client = _client(timeout)
    call = _CALLS.submit(
        client.chat.completions.create,
        model=model_for(use),
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        response_format={"type": "json_object"},
        temperature=0,
        max_tokens=max_tokens,
    )
    try:
        response = call.result(timeout=timeout)
    except FutureTimeout:
        client.close()  # tears down the connection, so the abandoned call ends instead of holding a thread
        raise LLMError(f"no complete answer within {timeout:g}s") from None
    except openai.APITimeoutError:
        raise LLMError(f"timeout after {timeout:g}s") from None
    except openai.APIStatusError as error:
        raise LLMError(f"HTTP {error.status_code}") from None
    except openai.APIError as error:
        raise LLMError(f"API error: {type(error).__name__}") from None
    except ValueError:  # the client could not even parse the HTTP body
        raise LLMError("invalid JSON in the response body") from None
    finally:
        if call.done():
            client.close()
    try:
        content = response.choices[0].message.content or ""
        data = json.loads(_strip_fences(content))
    except (IndexError, AttributeError, TypeError, ValueError):
        # ValueError also covers JSON that Python refuses, such as an integer of thousands of digits.
        raise LLMError("invalid JSON in the answer") from None
    if not isinstance(data, dict):
        raise LLMError("the answer is not a JSON object")
    return data


_STREAM_END = object()


def chat_stream(*, system: str, user: str, timeout: float, use: str, max_tokens: int = 1500) -> Iterator[str]:
    """A streamed chat completion as text pieces, the whole of it within `timeout` seconds.

    The HTTP stream is read in a pool thread and handed over through a queue, so a stalled or
    dripping endpoint cannot hold the caller past the deadline; a failure at any point raises LLMError.
    """
    import openai

    deadline = time.monotonic() + timeout
    client = _client(timeout)
    pieces: queue.Queue = queue.Queue()

    def read() -> None:
        try:
            stream = client.chat.completions.create(
                model=model_for(use),
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                temperature=0,
                max_tokens=max_tokens,
                stream=True,
            )
            for event in stream:
                delta = event.choices[0].delta.content if event.choices else None
                if isinstance(delta, str) and delta:
                    pieces.put(delta)
            pieces.put(_STREAM_END)
        except openai.APITimeoutError:
            pieces.put(LLMError(f"timeout after {timeout:g}s"))
        except openai.APIStatusError as error:
            pieces.put(LLMError(f"HTTP {error.status_code}"))
        except openai.APIError as error:
            pieces.put(LLMError(f"API error: {type(error).__name__}"))
        except (AttributeError, IndexError, TypeError, ValueError):
            pieces.put(LLMError("malformed stream event"))
        except Exception as error:  # noqa: BLE001 - the transport's own errors end the stream, never the thread silently
            pieces.put(LLMError(f"stream failed: {type(error).__name__}"))

    _CALLS.submit(read)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise LLMError(f"no complete answer within {timeout:g}s")
            try:
                piece = pieces.get(timeout=remaining)
            except queue.Empty:
                raise LLMError(f"no complete answer within {timeout:g}s") from None
            if piece is _STREAM_END:
                return
            if isinstance(piece, LLMError):
                raise piece
            yield piece
    finally:
        client.close()  # also ends a read still running after a deadline or an abandoned stream


def llm_product_id(value) -> int | None:
    """An integer id as the LLM wrote it (7, 7.0 or "7"); anything else (1e400, true, "zeven") is no id."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 18:
        value = int(value.strip())
    return value if isinstance(value, int) else None


def _strip_fences(content: str) -> str:
    content = content.strip()
    if content.startswith("```"):
        content = content.strip("`")
        content = content[content.find("{") :] if "{" in content else content
    return content


HYDE_SYSTEM = (
    "Je schrijft voor een zoekmachine van arbeidsgerelateerde interventies. Geef een JSON-object "
    '{"beschrijving": "..."} met een korte (3 zinnen) beschrijving van een ideale interventie voor de situatie, '
    "in de stijl van een productomschrijving. Noem geen namen."
)


def hypothetical_product(situation: str) -> str | None:
    """HyDE: a hypothetical product description to widen a weak query; None when the LLM does not answer in time."""
    try:
        data = chat_json(system=HYDE_SYSTEM, user=situation, timeout=settings.HYDE_TIMEOUT_S, use="hyde", max_tokens=300)
    except LLMError as error:
        logger.warning("HyDE expansion skipped: %s", error)
        return None
    description = data.get("beschrijving")
    return description.strip()[:1000] if isinstance(description, str) and description.strip() else None
