"""Dutch compound splitting over a vocabulary ("rugklachten" → "rug", "klachten").

The Dutch Snowball stemmer leaves compounds whole, so "rugklachten" shares no lexeme with "rug"
or "klachten". We split a word into parts that are themselves words of our own searchable texts
(catalog, wijzer, guideline titles, thesaurus): every part we add can match something, and the
split works the same against the embedded and an external PostgreSQL, because it happens in
Python before `to_tsvector`. Chosen over a Hunspell `ispell` dictionary (needs files on the
database server, impossible on a managed PostgreSQL) and over trigram matching (matches
substrings across word boundaries, and cannot weigh parts by IDF).

Dutch compounds are right-headed and may carry a linking morpheme ("arbeid-s-ongeval",
"pann-en-koek"). Verbal particles and prefixes ("over", "voor", "ver", "ont") are never split
off: "voorkomen" is not "voor" + "komen".
"""

import re

MIN_PART = 3
MIN_COMPOUND = 6
# A head found without a known modifier ("gok" + "verslaving") must be this long to be trusted.
MIN_LONE_HEAD = 6
LINKING_MORPHEMES = ("s", "en", "e")
NEVER_MODIFIERS = frozenset(
    "aan achter af bij binnen boven buiten door her mee mis na om on ont onder op over samen "
    "tegen toe uit ver voor weer wan".split()
)
# A compound's parts are content words. Function words would otherwise split inflected forms into
# nonsense: "moeten" → "moe" + "ten" (tired), "zitten" → "zit" + "ten", "meteen" → "met" + "een".
FUNCTION_WORDS = frozenset(
    "al als bij dan dat de den der des deze die dit doen een en er geen haar hem hen het hij hoe hun ik in "
    "is je kan maar me meer met mij na naar niet nog nu of om ons op te ten ter tot van veel wat wie wij "
    "wil ze zelf zich zij zijn zo zou".split()
)
_WORD = re.compile(r"[a-zà-ÿ]+(?:-[a-zà-ÿ]+)*")


def words_of(text: str) -> list[str]:
    """Lower-case alphabetic words; a hyphenated word stays whole ("burn-out"), as PostgreSQL's parser
    also indexes it whole next to its pieces."""
    return _WORD.findall(text.lower())


class Decompounder:
    """Splits words into vocabulary parts; results are cached per instance."""

    def __init__(self, vocabulary: set[str]) -> None:
        self.vocabulary = frozenset(
            w for w in vocabulary if "-" not in w and len(w) >= MIN_PART and w not in NEVER_MODIFIERS and w not in FUNCTION_WORDS
        )
        # Our texts' hyphenated words by their joined spelling: "burnout" is typed for "burn-out".
        self.hyphenated: dict[str, tuple[str, ...]] = {}
        for word in sorted(w for w in vocabulary if "-" in w):
            joined = word.replace("-", "")
            self.hyphenated[joined] = (*self.hyphenated.get(joined, ()), word)
        self._cache: dict[str, tuple[str, ...]] = {}

    def parts(self, word: str) -> tuple[str, ...]:
        """The meaningful parts of a compound (empty for a simple word): its atoms and the known words they form.

        "thuiswerkplek" → thuis, werk, plek, thuiswerk?, werkplek (the two-atom words only when known).
        """
        word = word.lower()
        if "-" in word:
            return tuple(dict.fromkeys(part for piece in word.split("-") for part in self.parts(piece)))
        if word not in self._cache:
            self._cache[word] = self._split(word) if len(word) >= MIN_COMPOUND else ()
        return self._cache[word]

    def _split(self, word: str) -> tuple[str, ...]:
        atoms = self._segment(word)
        if atoms is None:
            return self._lone_head(word)
        found: list[str] = []
        for start in range(len(atoms)):
            for end in range(start + 1, len(atoms) + 1):
                if end - start == len(atoms):
                    continue
                joined = "".join(atoms[start:end])
                if end - start == 1 or joined in self.vocabulary:
                    found.append(joined)
        return tuple(dict.fromkeys(found))

    def _segment(self, word: str) -> list[str] | None:
        """Fewest known atoms (at least two) that make up the word, allowing linking morphemes between them."""
        best: dict[int, list[str]] = {0: []}
        for end in range(MIN_PART, len(word) + 1):
            options = []
            for start in range(0, end - MIN_PART + 1):
                if start not in best:
                    continue
                piece = word[start:end]
                atom = self._known(piece, final=end == len(word))
                if atom and not (start == 0 and end == len(word)):
                    options.append(best[start] + [atom])
            if options:
                best[end] = min(options, key=lambda atoms: (len(atoms), -len(atoms[-1])))
        result = best.get(len(word))
        return result if result and len(result) >= 2 else None

    def _known(self, piece: str, *, final: bool) -> str | None:
        if piece in self.vocabulary:
            return piece
        if not final:
            for morpheme in LINKING_MORPHEMES:
                stem = piece[: -len(morpheme)]
                if piece.endswith(morpheme) and len(stem) >= MIN_PART and stem in self.vocabulary:
                    return stem
        return None

    def _lone_head(self, word: str) -> tuple[str, ...]:
        """The longest known head behind an unknown modifier of at least MIN_PART letters.

        The modifier itself is not returned: without the vocabulary's word for it, it is as often a
        prefix ("bege-leiding") as a word ("knie-klachten").
        """
        for start in range(MIN_PART, len(word) - MIN_LONE_HEAD + 1):
            head, modifier = word[start:], word[:start]
            if head in self.vocabulary and modifier not in NEVER_MODIFIERS:
                return (head,)
        return ()

    def expand(self, text: str) -> list[str]:
        """All compound parts of the words in a text, in order of appearance, without repeats."""
        return list(dict.fromkeys(part for word in words_of(text) for part in self.parts(word)))
