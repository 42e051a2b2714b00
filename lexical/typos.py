"""Typing errors in a query ("zwnager", "loonbelsag", "nachtdiensen"), corrected against a Dutch word list.

A misspelt word matches nothing lexically, its vector drifts, and the rules that read a situation miss
it ("zwnager" names no pregnancy). A word is only taken for a typing error when it is neither Dutch
(pyspellchecker's Dutch list of 343,000 words with their frequencies, shipped inside its wheel), nor
English, nor a word or compound of our own texts, and one keystroke (a letter left out, added, changed
or two letters swapped) turns it into a word of our texts; a word that is Dutch but for its trema gets it. Without the Dutch list
such a rule "corrected" real words our texts lack ("niemand" → "iemand", "gevallen" → "bevallen"):
docs/measurements.md, eleventh and fifteenth session.
"""

import functools
import re

from lexical.compounds import words_of
from lexical.spelling import _without_diacritics
from lexical.vocabulary import decompounder

# Shorter words have too many neighbours one keystroke away to guess which was meant.
MIN_TYPO_LETTERS = 5
_LETTERS = "abcdefghijklmnopqrstuvwxyzéëïöü"


@functools.lru_cache(maxsize=1)
def _known() -> tuple[dict[str, int], frozenset[str], dict[str, str]]:
    """The Dutch words with their frequencies, the English words (specialists write "retail", "stent",
    "cloud"), and the Dutch words with a trema or accent by their plain spelling ("patienten") — loaded
    once per process, ~0.5 s."""
    from spellchecker import SpellChecker

    dutch = dict(SpellChecker(language="nl", distance=1).word_frequency.dictionary)
    english = frozenset(SpellChecker(language="en", distance=1).word_frequency.dictionary)
    plain: dict[str, str] = {}
    for word, count in dutch.items():
        stripped = _without_diacritics(word)
        if stripped != word and count > dutch.get(plain.get(stripped, ""), 0):
            plain[stripped] = word
    return dutch, english, plain


def word_lists_warm() -> None:
    """Load the word lists when a web process starts (~0.6 s), not on its first search with a typing error."""
    _known()


def _one_keystroke(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {left + right[1:] for left, right in splits if right}
    swaps = {left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1}
    replaces = {left + letter + right[1:] for left, right in splits if right for letter in _LETTERS}
    inserts = {left + letter + right for left, right in splits for letter in _LETTERS}
    return (deletes | swaps | replaces | inserts) - {word}


def typo_corrections(text: str) -> dict[str, str]:
    """Each misspelt word of the text with the word of our texts it was meant to be."""
    dutch, english, plain = _known()
    splitter = decompounder()

    def ours(word: str) -> bool:  # membership only: a union of the vocabulary per query would copy it each time
        return word in splitter.vocabulary or word in splitter.hyphenated

    corrections: dict[str, str] = {}
    for word in dict.fromkeys(words_of(text)):
        if len(word) < MIN_TYPO_LETTERS or "-" in word or word in dutch or ours(word) or word in english:
            continue
        if word in plain:  # "patienten", "knieen": the trema left out
            corrections[word] = plain[word]
            continue
        if splitter.parts(word):
            continue
        # A typing error seldom hits the first letter; "veels" is not "deels".
        candidates = sorted((w for w in _one_keystroke(word) if w[0] == word[0] and ours(w)), key=lambda w: -dutch.get(w, 0))
        # None of our words, or two equally likely ones: no guess.
        if not candidates or (len(candidates) > 1 and dutch.get(candidates[0], 0) == dutch.get(candidates[1], 0)):
            continue
        corrections[word] = candidates[0]
    return corrections


def spelling_corrected(text: str) -> tuple[str, dict[str, str]]:
    """The text to search ("zwnager" as "zwanger") and what was corrected, typed word -> word searched."""
    corrections = typo_corrections(text)
    return typos_corrected(text, corrections), corrections


def typos_corrected(text: str, corrections: dict[str, str]) -> str:
    """The text with each misspelt word replaced (whole words, case-insensitive)."""
    if not corrections:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(corrections, key=len, reverse=True)) + r")\b", re.IGNORECASE)
    return pattern.sub(lambda m: corrections[m.group(1).lower()], text)


def corrections_note(corrections: dict[str, str]) -> str:
    """The Dutch line that tells the user what was searched instead of what was typed ("" without corrections)."""
    if not corrections:
        return ""
    return "Gezocht met verbeterde spelling: " + ", ".join(f"{typed} → {meant}" for typed, meant in corrections.items())
