"""Whether the judged guideline questions closest in meaning were answered by the corpus.

The character n-gram closeness (search.pipeline.precedents) sees a question's words; this sees its
meaning: "Mag mijn werkgever me ontslaan terwijl ik ziek ben?" shares few grams with "opzegverbod
tijdens ziekte", but its vector sits among judged questions about dismissal, which the corpus does
not answer. The vote is the share of the nearest judged questions that have an answering article,
each weighted by exp(SHARPNESS · similarity), so a much closer one counts for more.

Leave-one-set-out over the 2,548 judged questions of 47 sets (`manage.py tune_abstention`), as a term of
the abstention model (search.pipeline.abstention): unanswerable questions answered 62 -> 40 of 748,
answerable ones kept silent 11 -> 12 of 1,800. On two sets written afterwards and not loaded (120
questions): answered 6 -> 4 of 40, kept silent 1 -> 1 of 80 (docs/measurements.md, twenty-third
session). 3, 5 and 8 neighbours answered 39, 39 and 49 and kept 14, 13 and 16 silent; 5 is kept.
"""

import math

from django.db import connection

from embeddings.selectors import COMMON_SIMILARITY

NEIGHBOURS = 5
SHARPNESS = 10.0

_CLOSEST_SQL = f"""
SELECT EXISTS (SELECT 1 FROM search_referencequestionplace p WHERE p.question_id = q.id) AS answered,
       {COMMON_SIMILARITY.format(column="q.embedding")} AS similarity
FROM search_referencequestion q
WHERE q.is_active AND q.embedding_model = %(model)s AND q.source <> %(held_out_source)s
ORDER BY q.embedding <=> %(vec)s::vector
LIMIT %(neighbours)s
"""


def answered_vote(embedding: dict, *, held_out_source: str = "") -> float | None:
    """0..1: how much the closest judged questions were answered; None when none has a vector of this model."""
    with connection.cursor() as cursor:
        cursor.execute(_CLOSEST_SQL, {**embedding, "held_out_source": held_out_source, "neighbours": NEIGHBOURS})
        rows = cursor.fetchall()
    if not rows:
        return None
    weights = [(math.exp(SHARPNESS * similarity), answered) for answered, similarity in rows]
    return sum(weight for weight, answered in weights if answered) / sum(weight for weight, _ in weights)
