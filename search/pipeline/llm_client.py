"""The optional LLM behind an OpenAI-compatible endpoint: JSON chat calls with hard timeouts.

Every caller treats a failure as "no LLM this time" and falls back to the offline path, so
nothing here may raise anything but LLMError.
"""

import json
import logging
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


def chat_json(*, system: str, user: str, timeout: float, max_tokens: int = 1500) -> dict:
    """One chat completion that must return a JSON object, complete within `timeout` seconds."""
    import openai

    client = openai.OpenAI(
        api_key=settings.LLM_API_KEY, base_url=settings.LLM_BASE_URL or None, timeout=timeout, max_retries=0
    )
    call = _CALLS.submit(
        client.chat.completions.create,
        model=settings.LLM_MODEL,
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
        data = chat_json(system=HYDE_SYSTEM, user=situation, timeout=settings.HYDE_TIMEOUT_S, max_tokens=300)
    except LLMError as error:
        logger.warning("HyDE expansion skipped: %s", error)
        return None
    description = data.get("beschrijving")
    return description.strip()[:1000] if isinstance(description, str) and description.strip() else None
