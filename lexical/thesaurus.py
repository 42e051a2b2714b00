"""Curated word lists: what a specialist types → the words our texts use, and what our texts do not cover.

Four lists, plain data an admin can extend:
- lexical/thesaurus.json, everyday Dutch → catalog vocabulary. Specialists write "gokt",
  "geldproblemen", "afvallen"; the catalog says "gokverslaving", "schulden", "overgewicht".
- lexical/legal_terms.json, practice language → the wording of the regulations, for guideline
  questions only. A casemanager asks about "de casemanager" and "het verzuimdossier"; the Regeling
  procesgang speaks of "een persoon die de activiteiten begeleidt" and "aantekening houden". Kept apart
  so law wording never widens a product search.
- lexical/abbreviations.json, the abbreviations specialists type ("PvA", "AO", "LG", "mdw") → what they
  stand for; unlike a thesaurus word this counts as typed (lexical.terms), so "PvA opstellen" is about
  our domain as much as "plan van aanpak opstellen".
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
from typing import NamedTuple

from lexical.ages import with_ages_spelled

THESAURUS_FILE = Path(__file__).with_name("thesaurus.json")
LEGAL_TERMS_FILE = Path(__file__).with_name("legal_terms.json")


# An entry is tried only on texts where a word starts with the first letters of one of its phrases:
# 147 catalog and 323 legal entries, each a regex over the whole text, would cost ~5 ms a search untried.
PREFIX_LENGTH = 3


def _phrase_pattern(phrase: str) -> str:
    """A phrase as a regex in which a hyphen may also be a space or nothing: "15-jarige", "15 jarige", "15jarige"."""
    return re.escape(phrase).replace(r"\-", r"[-\s]?")


def _phrases_pattern(phrases: list[str]) -> re.Pattern:
    """Any of the phrases, each at the start of a word."""
    return re.compile(r"(?<!\w)(?:" + "|".join(map(_phrase_pattern, phrases)) + ")", re.IGNORECASE)


def _hyphen_variants(phrase: str) -> set[str]:
    """The spellings _phrase_pattern admits, for the first-letters index."""
    return {phrase, phrase.replace("-", " "), phrase.replace("-", "")}


# Spoken forms typed as they are said: "loopt op z'n tandvlees", "zn baas", "m'n collega". The lists spell them out.
_CONTRACTIONS = (
    (re.compile(r"(?<!\w)z'?n(?!\w)", re.IGNORECASE), "zijn"),
    (re.compile(r"(?<!\w)m'?n(?!\w)", re.IGNORECASE), "mijn"),
    (re.compile(r"(?<!\w)d'r(?!\w)", re.IGNORECASE), "haar"),
    (re.compile(r"(?<!\w)'t(?!\w)", re.IGNORECASE), "het"),
)


def with_contractions_spelled(text: str) -> str:
    """The text with "z'n", "zn", "m'n", "d'r" and "'t" written out."""
    for pattern, spelled in _CONTRACTIONS:
        text = pattern.sub(spelled, text)
    return text


class _Entry(NamedTuple):
    phrases: list[str]
    pattern: re.Pattern
    value: str
    unless: re.Pattern | None

    def names(self, text: str) -> bool:
        """Whether the text names one of the phrases and none of the "unless" phrases."""
        return bool(self.pattern.search(text)) and not (self.unless and self.unless.search(text))


class Thesaurus:
    """Entries {"match": [phrases], "add": "words"} from a JSON file; a phrase matches at the start of a word.

    An entry may also list "unless" phrases: a text naming one of them is about something else, and the
    entry adds nothing ("weigert" is a refusal to work on one's recovery, "weigert zijn helm" is not).
    """

    def __init__(self, path: Path, *, value_key: str = "add") -> None:
        self.path = path
        self.value_key = value_key

    @functools.cached_property
    def _phrases_and_entries(self) -> list["_Entry"]:
        if not self.path.exists():
            return []
        loaded = []
        for entry in json.loads(self.path.read_text(encoding="utf-8")):
            phrases = [term.lower() for term in entry["match"] if term.strip()]
            if phrases:
                unless = [term.lower() for term in entry.get("unless", ()) if term.strip()]
                loaded.append(_Entry(phrases, _phrases_pattern(phrases), entry[self.value_key], _phrases_pattern(unless) if unless else None))
        return loaded

    @functools.cached_property
    def entries(self) -> list[tuple[re.Pattern, str]]:
        return [(entry.pattern, entry.value) for entry in self._phrases_and_entries]

    @functools.cached_property
    def _entries_by_prefix(self) -> dict[str, list[int]]:
        by_prefix: dict[str, list[int]] = {}
        for number, entry in enumerate(self._phrases_and_entries):
            for prefix in {variant[:PREFIX_LENGTH] for phrase in entry.phrases for variant in _hyphen_variants(phrase)}:
                by_prefix.setdefault(prefix, []).append(number)
        return by_prefix

    def _candidates(self, text: str) -> list[int]:
        """Entries with a phrase that begins where a word of the text begins (a superset of the matches)."""
        lowered = text.lower()
        starts = [0, *(match.end() for match in re.finditer(r"\W", lowered))]
        by_prefix = self._entries_by_prefix
        return sorted({
            number for start in starts for length in range(1, PREFIX_LENGTH + 1) for number in by_prefix.get(lowered[start : start + length], ())
        })

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - two module-level instances that live as long as the process
    def additions(self, text: str) -> tuple[str, ...]:
        """The added words of every entry the text mentions (cached: one scan per distinct text)."""
        text = with_contractions_spelled(text)
        entries = self._phrases_and_entries
        return tuple(entries[number].value for number in self._candidates(text) if entries[number].names(text))

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


def domain_entries_named(text: str) -> int:
    """How many entries of the catalog thesaurus (how specialists name health and work matters) the text mentions."""
    return len(CATALOG_THESAURUS.additions(text))


def legal_expansion_terms(text: str) -> list[str]:
    """The regulations' own words for the practice terms the question mentions (an age it gives counts as its
    "16-jarige": lexical.ages)."""
    return list(LEGAL_THESAURUS.additions(with_ages_spelled(text)))


def outside_topics_named(text: str) -> list[tuple[str, re.Pattern]]:
    """The uncovered subjects the text names, each with the pattern that finds it in a passage."""
    return [(topic, pattern) for pattern, topic in OUTSIDE_TOPICS.entries if pattern.search(text)]


ABBREVIATIONS_FILE = Path(__file__).with_name("abbreviations.json")


@functools.lru_cache(maxsize=1)
def _abbreviation_patterns() -> tuple[tuple[re.Pattern, str, str], ...]:
    """(whole-word pattern, the abbreviation in lower case, what it stands for) per entry of abbreviations.json.

    Whole words only, unlike the thesaurus phrases ("ass" must not match "assistent"); an abbreviation
    that is also a Dutch word or a common English one (PA, BA, AD, MS, OR) counts only as typed in capitals.
    """
    if not ABBREVIATIONS_FILE.exists():
        return ()
    entries = json.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    return tuple(
        (
            re.compile(rf"(?<![\w&-]){re.escape(entry['abbreviation'])}(?![\w&-])", 0 if entry.get("case_sensitive") else re.IGNORECASE),
            entry["abbreviation"].lower(),
            entry["means"],
        )
        for entry in entries
    )


def abbreviations_named(text: str) -> list[tuple[str, str]]:
    """(abbreviation in lower case, what it stands for) for each abbreviation the text uses ("PvA": plan van aanpak)."""
    return [(abbreviation, means) for pattern, abbreviation, means in _abbreviation_patterns() if pattern.search(text)]


def abbreviations_spelled_out(text: str) -> str:
    """The text followed by what its abbreviations stand for, for matchers that cannot know them
    (character n-grams, an embedding model): "AD inzetten" then also reads "arbeidsdeskundige"."""
    meanings = [means for _, means in abbreviations_named(text)]
    return f"{text} ({'; '.join(meanings)})" if meanings else text


def thesaurus_words() -> frozenset[str]:
    """Every catalog word the thesaurus can add: part of the compound vocabulary."""
    return CATALOG_THESAURUS.words
