"""Rules for a group of workers, cited only when the question is about that group.

The regulations protect pregnant and breastfeeding workers, young workers and children with sections of
their own (Arbobesluit 1.38-1.42 and 5.13a, 6.29c, 4.108; Arbobesluit 1.35-1.37, 4.105, 6.27;
Arbeidstijdenwet chapter 3 and 5:3, 5:7). Such a section shares most of its words with the general rule
next to it: "zakken 25 kilo sjouwen hele dienst" found Arbobesluit 5.13a (lifting while pregnant) before
5.2 (lifting), and a specialist who opens that citation stops trusting the answer. Of the 1,294 judged
answerable law questions, 68 cited such a passage among their first three without naming its group, and
none of them expects a group's section without naming the group (once ages are read: lexical.ages). So a
group's section goes after the passages for everyone, unless the question names the group: those 68 now
cite none, the right article stays among the first three as often as before (cited@1 0.871 -> 0.872),
and one of 503 unanswerable questions is answered that was not (docs/measurements.md, nineteenth session).
"""

import re

from lexical.ages import ages_named
from search.pipeline.prerequisites import PREGNANCY, occasion_named
from search.pipeline.types import CitedChunk

# Where a passage's document title or section path names the group (the regulations' own headings).
_PASSAGE_GROUPS = {
    "zwanger": re.compile(r"zwanger|lactatie|bevallen|vrouwelijke werknemers", re.IGNORECASE),
    "jong": re.compile(r"jeugdig|kinderarbeid", re.IGNORECASE),
}
# How a question names the group, past how a situation names a pregnancy (search.pipeline.prerequisites) and an age.
_QUESTION_GROUPS = {
    "zwanger": re.compile(r"lactatie|in verwachting|ongeboren|moederschap|zogend|kraam", re.IGNORECASE),
    "jong": re.compile(
        r"jeugdig|\bjonger(?:e|en)?\b|minderjarig|\bkind\b|kinderen|kinderarbeid|scholier|leerling|stagiair|bijbaan|vakantiewerk|"
        r"vakantiebaan|vakantiekracht|zaterdagbaan|zaterdaghulp|onder de 1[68]|jonger dan 1[68]",
        re.IGNORECASE,
    ),
}


def groups_named(question: str) -> frozenset[str]:
    """The protected groups a question is about ("zwanger", "jong")."""
    named = {group for group, pattern in _QUESTION_GROUPS.items() if pattern.search(question)}
    if occasion_named(question, PREGNANCY):
        named.add("zwanger")
    if ages_named(question):
        named.add("jong")
    return frozenset(named)


def passage_groups(passage: CitedChunk) -> frozenset[str]:
    """The protected groups a passage's section (or whole document) is written for."""
    where = f"{passage.document_title} {passage.section}"
    return frozenset(group for group, pattern in _PASSAGE_GROUPS.items() if pattern.search(where))


def named_groups_first(passages: list[CitedChunk], question: str) -> list[CitedChunk]:
    """The passages in their order, except that those for a group the question does not name go last."""
    named = groups_named(question)
    return sorted(passages, key=lambda p: bool((groups := passage_groups(p)) and not groups & named))  # stable
