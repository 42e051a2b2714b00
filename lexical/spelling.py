"""Dutch spelling variants of one word: the hyphen and the trema mark the same vowel clash.

Dutch separates two vowels that would otherwise read as one sound either with a hyphen or with a
trema on the second ("re-integratie" / "reïntegratie", "co-ordinatie" / "coördinatie"), and the
official spelling switched between them: the laws of 2002 write "reïntegratieverslag", a
specialist today types "re-integratieverslag". PostgreSQL's Dutch configuration keeps the two
apart (and "ï" is not "i"), so a query word also matches in its other spellings.
"""

import unicodedata

VOWELS = frozenset("aeiouy")
# Where a trema may come back as a hyphen: after a prefix ("reïntegratie" → "re-integratie"), never
# inside a stem ("patiënt" is not "pati-ent", whose pieces would match half the corpus).
HYPHEN_PREFIXES = frozenset("re co de pre pro neo bio geo zee mee anti auto semi para micro macro multi".split())
_TREMA = {"a": "ä", "e": "ë", "i": "ï", "o": "ö", "u": "ü"}
_PLAIN = {trema: plain for plain, trema in _TREMA.items()}


def spelling_variants(word: str) -> set[str]:
    """The word's other spellings: joined with a trema, joined plain, hyphenated, without diacritics."""
    variants = set()
    if "-" in word:
        pieces = word.split("-")
        with_trema = plain = pieces[0]
        for piece in pieces[1:]:
            if not piece:
                continue
            clash = bool(with_trema) and with_trema[-1] in VOWELS and piece[0] in VOWELS
            with_trema += (_TREMA.get(piece[0], piece[0]) + piece[1:]) if clash else piece
            plain += piece
        variants |= {with_trema, plain}
    if any(char in _PLAIN for char in word):
        variants.add(_without_diacritics(word))
        for index, char in enumerate(word):
            if char in _PLAIN and word[:index] in HYPHEN_PREFIXES:
                variants.add(f"{word[:index]}-{_without_diacritics(word[index:])}")
    return variants - {word, ""}


def _without_diacritics(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
