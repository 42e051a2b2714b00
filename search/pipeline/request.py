"""What a search is asked: the request, its limits, and the validation every entry point shares
(form, API, commands)."""

import re
from dataclasses import dataclass, field

from django.conf import settings

from search.pipeline.errors import SearchInputError

MAX_QUERY_LENGTH = 1000
MAX_TOP_K = 5
MODES = ("two-stage", "hybrid", "vector")
# evaluate also compares "<mode>+multi" and "<mode>+single": with and without multi-query retrieval.
EVALUATION_MODES = MODES + tuple(f"{mode}+{variant}" for mode in MODES for variant in ("multi", "single"))
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def default_top_k() -> int:
    return settings.SEARCH_TOP_K


def default_multi_query() -> bool:
    return settings.SEARCH_MULTI_QUERY


@dataclass
class SearchRequest:
    query: str
    mode: str = "two-stage"
    top_k: int = field(default_factory=default_top_k)
    multi_query: bool = field(default_factory=default_multi_query)  # the situation's facets as sub-queries too
    role: str = ""
    sector: str = ""
    duration: str = ""
    budget: str = ""
    employee_name: str = ""  # only used to keep names out of logs and LLM prompts
    company_name: str = ""
    # Evaluation only: the judged set being measured, whose own situations must not vote (precedents).
    held_out_source: str = ""


# The form fields stored with a search so it can be replayed (never the names).
REPLAYABLE_FIELDS = ("role", "sector", "duration", "budget")


def validate_query(query: str) -> str:
    query = (query or "").strip()
    if not query:
        raise SearchInputError("Beschrijf de situatie van de werknemer; het veld is leeg.")
    if len(query) > MAX_QUERY_LENGTH:
        raise SearchInputError(f"De beschrijving is te lang ({len(query)} tekens); gebruik maximaal {MAX_QUERY_LENGTH} tekens.")
    if _CONTROL.search(query):
        raise SearchInputError("De beschrijving bevat onzichtbare stuurtekens; plak de tekst opnieuw als platte tekst.")
    return without_caps_lock(query)


# A text typed with caps lock on reads as a row of abbreviations, and the embedding model is case
# sensitive: "ZE IS OOK LICHAMELIJK TOTAAL OP" found nothing where the same words in lower case did.
# A short all-caps input ("RSI", "PTSS") is left alone: that is how abbreviations are written.
CAPS_LOCK_MIN_LETTERS = 12
CAPS_LOCK_SHARE = 0.8


def without_caps_lock(text: str) -> str:
    """The text in lower case when nearly all of its letters are capitals, else unchanged."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) >= CAPS_LOCK_MIN_LETTERS and sum(c.isupper() for c in letters) >= CAPS_LOCK_SHARE * len(letters):
        return text.lower()
    return text


def validate_request(request: SearchRequest) -> None:
    if request.mode not in MODES:
        raise SearchInputError(f"Onbekende zoekmodus '{request.mode}'; kies uit {', '.join(MODES)}.")
    if not 1 <= request.top_k <= MAX_TOP_K:
        raise SearchInputError(f"Het aantal aanbevelingen moet tussen 1 en {MAX_TOP_K} liggen.")


def scrub_names(text: str, *names: str) -> str:
    """Replace the employee's and company's names by placeholders before logging or prompting."""
    for name, placeholder in zip(names, ("[werknemer]", "[bedrijf]"), strict=False):
        if name and len(name.strip()) >= 2:
            text = re.sub(re.escape(name.strip()), placeholder, text, flags=re.IGNORECASE)
    return text
