"""Ages of children and young workers as people type them: "ik ben 16", "dochter van 13", "zoon van de buren (16)".

The regulations protect two age groups with rules of their own: a child under 16 (Arbeidstijdenwet 1:7, 3:2)
and a young worker under 18 ("jeugdige werknemer": Arbobesluit 1.36-1.37, 4.105, 6.27; Arbeidstijdenwet 5:3,
5:7). Their words ("kind", "jeugdige werknemer") are what the practice-term list (lexical/legal_terms.json)
adds for "16-jarige" or "13-jarige". People rarely write that: they write their own age or the one of a son,
a niece or an intern. Of 1,294 judged answerable law questions, eleven about under-18s were cited wrongly or
left unanswered, eight of them with the age written this way; reading the age put the right article among the
first three for three of those and moved no other question out (docs/measurements.md, nineteenth session).
Adults ("is 15 jaar in dienst", "ik ben 17 weken ziek") are left alone.
"""

import re

_AGE = r"(1[2-7])"
# Not an age when a unit follows: "een medewerker van 16 uur per week", "ik ben 14 weken ziek".
_UNITS = r"%|procent|uur|u\b|weken|week|wk|maanden|maand|dagen|dag|kilo|kg|euro|meter|m\b|minuten|min\b|keer"
_NOT_A_UNIT_AFTER = rf"(?!\s*(?:{_UNITS}))"
# After "is" or "ik ben" years can also be years of service: "is 17 jaar bij ons in dienst".
_NOT_AN_AGE_AFTER = (
    rf"(?!\s*(?:{_UNITS}|jaar\s+(?:in dienst|geleden|werkzaam|bij|ervaring|lang|ziek|in|op|aan|voor|als|gewerkt|werk)\b))"
)
_PERSON = (
    r"(?:zoon|zoontje|dochter|dochtertje|neef|neefje|nicht|nichtje|kind|kinderen|jongen|jongetje|meisje|meid|knul|"
    r"broer|broertje|zus|zusje|buurjongen|buurmeisje|jongere|bijbaner|vakkenvuller|afwasser|bezorger|kleinzoon|kleindochter|"
    # also as the head of a compound: "BBL-leerling", "vakantiekracht", "zaterdaghulp", "productiemedewerker"
    r"\w*(?:leerling|scholier|stagiair|stagiaire|student|medewerker|medewerkster|werknemer|werkneemster|kracht|hulp|hulpje))"
)
_AGE_MENTIONS = (
    re.compile(rf"\bik ben (?:pas |net |nog maar )?{_AGE}\b{_NOT_AN_AGE_AFTER}", re.IGNORECASE),
    # "dochter van 13", "zoon van de buren (16)", "vakantiekracht van 16 jaar", "uitzendkracht is 17"
    re.compile(rf"\b(?:\w+-)?{_PERSON}\b[^.?!;:]{{0,25}}?(?:\bvan|\()\s*{_AGE}\b{_NOT_A_UNIT_AFTER}", re.IGNORECASE),
    re.compile(rf"\b(?:\w+-)?{_PERSON}\b[^.?!;:]{{0,25}}?(?:\bis|\bwordt)\s*{_AGE}\b{_NOT_AN_AGE_AFTER}", re.IGNORECASE),
    re.compile(rf"\b{_AGE}[-\s]?jarig", re.IGNORECASE),
    re.compile(rf"\b{_AGE} jaar oud\b", re.IGNORECASE),
)


def ages_named(text: str) -> list[int]:
    """The ages from 12 to 17 the text gives a person, in order of first mention, each once."""
    found = sorted((match.start(), int(match.group(1))) for pattern in _AGE_MENTIONS for match in pattern.finditer(text))
    return list(dict.fromkeys(age for _, age in found))


def with_ages_spelled(text: str) -> str:
    """The text followed by each age it gives as the word the regulations' practice terms know ("16-jarige")."""
    ages = ages_named(text)
    return f"{text} ({' '.join(f'{age}-jarige' for age in ages)})" if ages else text
