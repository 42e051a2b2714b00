"""Weighted query terms and index-side compound parts: what the full-text side of every search matches on.

A specialist's own words weigh most; compound parts of those words and thesaurus words weigh
less (they widen the match without outweighing what was typed). Other spellings of a typed word
("re-integratie" / "reïntegratie") weigh as much as the word, but like every added term they are
not "own": coverage (lexical.sql) measures how much of what was typed a text matches.
"""

import re
from dataclasses import dataclass

from lexical.compounds import words_of
from lexical.spelling import spelling_variants
from lexical.thesaurus import abbreviations_named, expansion_terms, legal_expansion_terms
from lexical.vocabulary import decompounder

OWN_WEIGHT = 1.0
COMPOUND_PART_WEIGHT = 0.5
SYNONYM_WEIGHT = 0.5
# The regulations' wording for a practice term (lexical/legal_terms.json): half a synonym's weight, since
# an entry adds several words; chosen on our own law questions (0.25 / 0.5 / 1.0: cited@1 0.50 / 0.49 / 0.48).
LEGAL_WORDING_WEIGHT = 0.25
# In a long guideline question the added words compete with every word typed: BM25 sums over terms, so
# thirty everyday words ("bijna elke dag", "daarmee", "maken") outscore the two that name the subject
# ("schreeuwende klanten" -> psychosociale arbeidsbelasting). Their weight grows with the question, by a
# tenth per typed word above ten, at most fourfold. Over 1,414 judged law questions the right article in
# the first three went 1,332 -> 1,343 (17 up in 13 sets, 6 down); a product search gains nothing from it
# (nDCG@3 +0.0005, 92 situations up and 86 down), so it stays with guideline questions (docs/measurements.md).
EXPANSION_WORDS_PER_UNIT = 10
EXPANSION_MAX_SCALE = 4.0


@dataclass(frozen=True)
class QueryTerms:
    words: tuple[str, ...]
    weights: tuple[float, ...]
    own: tuple[bool, ...]

    def params(self) -> dict[str, list]:
        """The SQL parameters of lexical.sql.TERMS_CTE."""
        return {"term_words": list(self.words), "term_weights": list(self.weights), "term_own": list(self.own)}


def query_terms(
    text: str, *, synonyms: bool = True, legal: bool = False, extra: str = "", extra_weight: float = SYNONYM_WEIGHT
) -> QueryTerms:
    """The text's words (weight 1), their compound parts and thesaurus words (lower weights).

    `legal` adds the regulations' own wording for practice terms (guideline questions only).
    `extra` is more text to match at `extra_weight`, e.g. the wijzer lines of a widened weak query.
    """
    splitter = decompounder()
    weighted: dict[str, float] = {}
    own: set[str] = set()

    def add(word: str, weight: float) -> None:
        if weight > weighted.get(word, 0.0):
            weighted[word] = weight

    def add_text(source: str, weight: float) -> None:
        for word in words_of(source):
            add(word, weight)
            for part in splitter.parts(word):
                add(part, weight * COMPOUND_PART_WEIGHT)

    add_text(text, OWN_WEIGHT)
    typed = words_of(text)
    own.update(typed)
    for word in typed:
        for variant in spelling_variants(word):  # our thesaurus and wijzer texts are written in one spelling
            add(variant, OWN_WEIGHT)
        for variant in splitter.hyphenated.get(word, ()):  # "burnout" typed, "burn-out" written
            add(variant, OWN_WEIGHT)
        # A compound none of our texts contains ("kortverzuim") is what its parts say: they, not the
        # unknown whole, are what coverage (the in-domain gate) should find of it.
        parts = splitter.parts(word)
        if parts and "-" not in word and word not in splitter.vocabulary:  # a hyphenated word is indexed whole too
            own.discard(word)
            own.update(parts)
    # An abbreviation is another way of typing what it stands for ("PvA": plan van aanpak): those words
    # weigh as typed and, where our texts use them, count as typed (coverage, the in-domain gate); the
    # abbreviation itself counts only where our texts use it. A word of the meaning no text has would
    # only dilute the coverage ("FML": functionele mogelijkhedenlijst).
    for abbreviation, means in abbreviations_named(text):
        for word in words_of(means):
            add(word, OWN_WEIGHT)
            if word in splitter.vocabulary:
                own.add(word)
        if abbreviation not in splitter.vocabulary:
            own.discard(abbreviation)
    scale = expansion_scale(len(typed)) if legal else 1.0
    if synonyms:
        add_text(" ".join(expansion_terms(text)), SYNONYM_WEIGHT * scale)
    if legal:
        add_text(" ".join(legal_expansion_terms(text)), LEGAL_WORDING_WEIGHT * scale)
    if extra:
        add_text(extra, extra_weight)
    return QueryTerms(tuple(weighted), tuple(weighted.values()), tuple(word in own for word in weighted))


def expansion_scale(typed_words: int) -> float:
    """How much more the added words of a guideline question weigh for its length (1 up to ten words)."""
    return max(1.0, min(EXPANSION_MAX_SCALE, typed_words / EXPANSION_WORDS_PER_UNIT))


def index_terms(*texts: str) -> str:
    """The compound parts of the words in the texts, for the index side ("thuiswerkplek" → thuis werk plek werkplek)."""
    return " ".join(decompounder().expand(" ".join(texts)))


# Where Python must tell whether two short texts share words (which problem areas a situation
# names; which sentences of a passage answer a question), a five-letter prefix is a good enough
# Dutch stem: "klachten"/"klacht", "angst"/"angstklachten", "overspannen"/"overspanning". The ranking
# itself matches on PostgreSQL's Dutch lexemes (lexical.sql); this is the one Python stand-in.
PREFIX_STEM_LENGTH = 5
PREFIX_STEM_MIN_WORD = 4


def prefix_stems(text: str, *, ignore: frozenset[str] = frozenset()) -> set[str]:
    return {
        word[:PREFIX_STEM_LENGTH] for word in re.findall(r"\w+", text.lower())
        if len(word) >= PREFIX_STEM_MIN_WORD and word not in ignore
    }
