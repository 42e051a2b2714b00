"""Regulations a guideline question names by their own name, and which of them the corpus does not hold.

"Welke brandwerendheid eist het Bouwbesluit?", "Moeten onze producten aan de Warenwet voldoen?", "Welk
technisch dossier vraagt de Machinerichtlijn?": a question about another regulation is not answered by
the closest article of ours, however many words they share. Two independent writers of judged questions
(law_questions_heldout16/17) asked such questions, and half of them got a citation. The list of subjects
outside the corpus (lexical/outside_topics.json) cannot name every regulation; a regulation names itself,
by a compound ending in -wet, -besluit, -richtlijn or -verordening. "Regeling" is left out: it is also an
everyday word for an arrangement ("consignatieregeling"), which our articles answer in other words.

A named regulation counts as held when a document of the corpus carries its name (title or source, also
as stem plus kind: "poortwachterwet" is the "Wet verbetering poortwachter") or when one of the best
passages names it (the Arbobesluit on the Warenwet's machines, the poortwachter act on the Ziektewet).
"""

import re

from guidelines.models import GuidelineDocument

_REGULATION_NAME = re.compile(r"\b([a-zà-ÿ]{3,}(?:-[a-zà-ÿ]+)*?)-?(wet|besluit|richtlijn|verordening)\b", re.IGNORECASE)


def regulations_named(question: str) -> list[tuple[str, str, str]]:
    """(the name as written, its stem, its kind) for each regulation the question names by its own name."""
    return [(m.group(0), _normal(m.group(1)), m.group(2).lower()) for m in _REGULATION_NAME.finditer(question)]


def regulations_not_held(question: str, best_texts: list[str]) -> list[str]:
    """The regulations the question names that no corpus document is and none of its best passages names."""
    named = regulations_named(question)
    if not named:
        return []
    held = [_normal(f"{title} {source}") for title, source in GuidelineDocument.objects.values_list("title", "source")]
    passages = [_normal(text) for text in best_texts]
    return [
        name for name, stem, kind in named
        if not any(_normal(name) in text or (stem in text and kind in text.split()) for text in held)
        and not any(_normal(name) in text for text in passages)
    ]


def _normal(text: str) -> str:
    """Lower case, hyphens as spaces: "NVAB-richtlijn" is the "NVAB Richtlijn …" of a title."""
    return re.sub(r"[\s-]+", " ", text.lower())
