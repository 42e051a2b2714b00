"""Curated word lists: what a specialist types → the words our texts use, and what our texts do not cover.

Three lists, plain data an admin can extend:
- lexical/thesaurus.json, everyday Dutch → catalog vocabulary. Specialists write "gokt",
  "geldproblemen", "afvallen"; the catalog says "gokverslaving", "schulden", "overgewicht".
- lexical/legal_terms.json, practice language → the wording of the regulations, for guideline
  questions only. A casemanager asks about "de casemanager" and "het verzuimdossier"; the Regeling
  procesgang speaks of "een persoon die de activiteiten begeleidt" and "aantekening houden". Kept apart
  so law wording never widens a product search.
- lexical/outside_topics.json, subjects next to ours that the corpus does not cover (holiday pay,
  notice periods, tax, pensions): a guideline question about one is answered only when its best
  passages name that subject too (search.pipeline.passages).
Dutch stemming cannot bridge compounds and synonyms, so the first two add words to the full-text query. The
embedding still sees only what the specialist typed.
"""

import functools
import json
import re
from pathlib import Path

THESAURUS_FILE = Path(__file__).with_name("thesaurus.json")
LEGAL_TERMS_FILE = Path(__file__).with_name("legal_terms.json")


class Thesaurus:
    """Entries {"match": [phrases], "add": "words"} from a JSON file; a phrase matches at the start of a word."""

    def __init__(self, path: Path, *, value_key: str = "add") -> None:
        self.path = path
        self.value_key = value_key

    @functools.cached_property
    def entries(self) -> list[tuple[re.Pattern, str]]:
        if not self.path.exists():
            return []
        entries = []
        for entry in json.loads(self.path.read_text(encoding="utf-8")):
            terms = [re.escape(term.lower()) for term in entry["match"] if term.strip()]
            if terms:
                entries.append((re.compile(r"(?<!\w)(?:" + "|".join(terms) + ")", re.IGNORECASE), entry[self.value_key]))
        return entries

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - two module-level instances that live as long as the process
    def additions(self, text: str) -> tuple[str, ...]:
        """The added words of every entry the text mentions (cached: one scan per distinct text)."""
        return tuple(add for pattern, add in self.entries if pattern.search(text))

    @functools.cached_property
    def words(self) -> frozenset[str]:
        return frozenset(word for _, add in self.entries for word in re.findall(r"[a-zà-ÿ]+", add.lower()))


CATALOG_THESAURUS = Thesaurus(THESAURUS_FILE)
LEGAL_THESAURUS = Thesaurus(LEGAL_TERMS_FILE)
# Subjects next to ours that the guideline corpus does not cover (pay, leave, contracts, tax, pensions):
# a guideline question about one is only answered when a passage found for it names the subject too.
OUTSIDE_TOPICS = Thesaurus(Path(__file__).with_name("outside_topics.json"), value_key="topic")


def expand_for_lexical(text: str) -> str:
    """The text plus the catalog words for every thesaurus entry it mentions."""
    additions = expansion_terms(text)
    return f"{text} {' '.join(additions)}" if additions else text


def expansion_terms(text: str) -> list[str]:
    """Catalog words for the thesaurus entries the text mentions."""
    return list(CATALOG_THESAURUS.additions(text))


def legal_expansion_terms(text: str) -> list[str]:
    """The regulations' own words for the practice terms the question mentions."""
    return list(LEGAL_THESAURUS.additions(text))


def outside_topics_named(text: str) -> list[tuple[str, re.Pattern]]:
    """The uncovered subjects the text names, each with the pattern that finds it in a passage."""
    return [(topic, pattern) for pattern, topic in OUTSIDE_TOPICS.entries if pattern.search(text)]


def thesaurus_words() -> frozenset[str]:
    """Every catalog word the thesaurus can add: part of the compound vocabulary."""
    return CATALOG_THESAURUS.words
