"""Everyday Dutch → catalog vocabulary, for the lexical route only.

Specialists write "gokt", "geldproblemen", "afvallen"; the catalog says "gokverslaving",
"schulden", "overgewicht". Dutch stemming cannot bridge compounds and synonyms, so a curated
thesaurus (lexical/thesaurus.json, plain data an admin can extend) adds the catalog's
words to the full-text query. The embedding still sees only what the specialist typed.
"""

import functools
import json
import re
from pathlib import Path

THESAURUS_FILE = Path(__file__).with_name("thesaurus.json")


@functools.cache
def _entries() -> list[tuple[re.Pattern, str]]:
    if not THESAURUS_FILE.exists():
        return []
    entries = []
    for entry in json.loads(THESAURUS_FILE.read_text(encoding="utf-8")):
        terms = [re.escape(term.lower()) for term in entry["match"] if term.strip()]
        if terms:
            entries.append((re.compile(r"(?<!\w)(?:" + "|".join(terms) + ")", re.IGNORECASE), entry["add"]))
    return entries


def expand_for_lexical(text: str) -> str:
    """The text plus the catalog words for every thesaurus entry it mentions."""
    additions = expansion_terms(text)
    return f"{text} {' '.join(additions)}" if additions else text


@functools.lru_cache(maxsize=1024)
def _expansions(text: str) -> tuple[str, ...]:
    return tuple(add for pattern, add in _entries() if pattern.search(text))


def expansion_terms(text: str) -> list[str]:
    """Catalog words for the thesaurus entries the text mentions (cached: one scan per distinct text)."""
    return list(_expansions(text))


@functools.cache
def thesaurus_words() -> frozenset[str]:
    """Every catalog word the thesaurus can add: part of the compound vocabulary."""
    return frozenset(word for _, add in _entries() for word in re.findall(r"[a-zà-ÿ]+", add.lower()))
