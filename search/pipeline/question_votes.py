"""What the judged guideline questions closest in meaning say: whether the corpus answered them, and where.

The character n-gram closeness (search.pipeline.precedents) sees a question's words; this sees its
meaning: "Mag mijn werkgever me ontslaan terwijl ik ziek ben?" shares few grams with "opzegverbod
tijdens ziekte", but its vector sits among judged questions about dismissal, which the corpus does
not answer. Each of the NEIGHBOURS closest judged questions weighs exp(SHARPNESS · similarity), so a
much closer one counts for more; the share of that weight with an answering article is a term of
the abstention model (search.pipeline.abstention), and the share that chose an article is a term of
the passage score (search.pipeline.passage_scoring).

Leave-one-set-out over the 2,548 judged questions of 47 sets (`manage.py tune_abstention`): unanswerable
questions answered 62 -> 42 of 748, answerable ones kept silent 11 -> 10 of 1,800, with the passage
weights refitted on the place vote (`manage.py tune_passages`: cited first 1,578 -> 1,596, among the
first three 1,716 -> 1,719 of 1,800). On two sets written afterwards and not loaded (120 questions):
answered 6 -> 4 of 40, kept silent 1 -> 1 of 80, cited first 70 -> 69 and among three 74 -> 74 of 80
(docs/measurements.md, twenty-third session). 3, 5 and 8 neighbours answered 39, 39 and 49 and kept
14, 13 and 16 silent in a first fit; 5 is kept.
"""

import math
from dataclasses import dataclass, field

from django.db import connection

from embeddings.selectors import COMMON_SIMILARITY

NEIGHBOURS = 5
SHARPNESS = 10.0

_CLOSEST_SQL = f"""
SELECT ARRAY(SELECT p.document_title || chr(31) || p.article FROM search_referencequestionplace p WHERE p.question_id = q.id) AS places,
       {COMMON_SIMILARITY.format(column="q.embedding")} AS similarity
FROM search_referencequestion q
WHERE q.is_active AND q.embedding_model = %(model)s AND q.source <> %(held_out_source)s
ORDER BY q.embedding <=> %(vec)s::vector
LIMIT %(neighbours)s
"""


@dataclass(frozen=True)
class MeaningVotes:
    """What the judged questions closest in meaning say about a new one."""

    answered: float | None = None  # 0..1: how much they were answered; None when none has a vector of this model
    places: dict = field(default_factory=dict)  # (document title, article) -> 0..1: how much of that weight chose it


def meaning_votes(embedding: dict, *, held_out_source: str = "") -> MeaningVotes:
    """The votes of the NEIGHBOURS judged questions closest to the question's vector (`embedding`: QueryEmbedding.params())."""
    with connection.cursor() as cursor:
        cursor.execute(_CLOSEST_SQL, {**embedding, "held_out_source": held_out_source, "neighbours": NEIGHBOURS})
        rows = cursor.fetchall()
    if not rows:
        return MeaningVotes()
    weighted = [(math.exp(SHARPNESS * similarity), places) for places, similarity in rows]
    total = sum(weight for weight, _ in weighted)
    votes: dict[tuple[str, str], float] = {}
    for weight, places in weighted:
        for place in places:
            title, article = place.split(chr(31), 1)
            votes[(title, article)] = votes.get((title, article), 0.0) + weight / total
    return MeaningVotes(sum(weight for weight, places in weighted if places) / total, votes)
