"""Whether the corpus answers a guideline question: a logistic model over the retrieval's evidence, fitted on judged questions.

The hand-set rule it replaces (a cosine threshold, a word-coverage threshold, and exceptions for short
questions, practice terms and the judged questions' votes) was tuned over many sessions on the same
judged sets it was measured on. The model weighs the same evidence at once and is refitted by
`manage.py tune_abstention`, which reports it leave-one-set-out: each set is one writer, measured with
the model fitted on the others (docs/measurements.md, seventeenth session). A question that names a
subject the corpus does not cover, or a regulation it does not hold, is not answered whatever the
model says (search.pipeline.passages).

The decision threshold is folded into the bias, so the fitted balance between answering and keeping
silent is a confidence of 0.5 (settings.ANSWER_MIN_CONFIDENCE).
"""

import math
from dataclasses import dataclass

# A question of at most this many words is a search-box question: how much of it one passage has counts on its own.
SEARCH_BOX_WORDS = 5
# More practice terms than this add nothing (lexical/legal_terms.json entries the question names).
PRACTICE_TERMS_CAP = 3
# A search-box question without a practice term, no passage even this close in meaning and no judged question
# vouching this much for one: of the 1,708 judged questions 0 answerable and 65 unanswerable ones look like this
# (0 and 39 below 0.15, 0 and 76 below 0.22). A term of its own, so the fit decides how much it weighs.
WEAK_SEARCH_BOX_SIMILARITY = 0.2
WEAK_SEARCH_BOX_VOUCHED = 0.5


@dataclass(frozen=True)
class AnswerEvidence:
    """What retrieval knows about whether anything in the corpus answers the question."""

    coverage: float  # share of the question's words in its best passage (BM25 coverage)
    similarity: float  # cosine of the closest passage, on the common (USE) scale
    answered_closeness: float  # cosine of character n-grams to the closest judged answerable question
    unanswerable_closeness: float  # the same to the closest judged unanswerable one
    vouched: float  # the closest judged questions' highest vote for the place of one of the best passages
    first_similarity: float  # cosine of the passage ranked first
    words: int
    practice_terms: int
    covered_topic: bool  # names a subject outside the corpus that the best passage names too

    def terms(self) -> tuple[float, ...]:
        """The value each weight multiplies, in the order of TERM_NAMES."""
        return (
            self.coverage,
            self.similarity,
            self.answered_closeness,
            self.unanswerable_closeness,
            self.vouched,
            self.first_similarity,
            math.log1p(self.words),
            min(self.practice_terms, PRACTICE_TERMS_CAP) / PRACTICE_TERMS_CAP,
            1.0 if self.covered_topic else 0.0,
            self.answered_closeness - self.unanswerable_closeness,
            self.coverage if self.words <= SEARCH_BOX_WORDS else 0.0,
            # without a practice term a search-box question's coverage is often compound parts: "banden wisselen"
            self.coverage if self.words <= SEARCH_BOX_WORDS and not self.practice_terms else 0.0,
            1.0 if self._weak_search_box() else 0.0,
        )

    def _weak_search_box(self) -> bool:
        """A few everyday words, nothing close in meaning, no judged question vouching: "banden wisselen"."""
        return (
            self.words <= SEARCH_BOX_WORDS
            and not self.practice_terms
            and self.similarity < WEAK_SEARCH_BOX_SIMILARITY
            and self.vouched < WEAK_SEARCH_BOX_VOUCHED
        )


TERM_NAMES = (
    "coverage", "similarity", "answered_closeness", "unanswerable_closeness", "vouched", "first_similarity",
    "log_words", "practice_terms", "covered_topic", "closer_to_answered", "search_box_coverage", "search_box_coverage_plain",
    "weak_search_box",
)


@dataclass(frozen=True)
class AbstentionModel:
    """Standardisation and weights per term (TERM_NAMES order), and a bias that includes the decision threshold."""

    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float

    def confidence(self, evidence: AnswerEvidence) -> float:
        """0..1: how sure the model is that the corpus answers the question (0.5 is the fitted balance)."""
        z = self.bias + sum(w * (t - m) / s for w, t, m, s in zip(self.weights, evidence.terms(), self.means, self.scales, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


# Fitted by `manage.py tune_abstention` on all 1,708 judged questions of 28 sets (the values it prints as "fitted on
# all"). Leave-one-set-out it keeps 11 of 1,250 answerable questions silent and answers 32 of 458 unanswerable ones;
# the hand-set rule it replaced kept 11 silent and answered 45 (docs/measurements.md, seventeenth session).
# Largest weights: closer to a judged answerable than to a judged unanswerable question, the judged questions'
# vote for a best passage, and word coverage; the cosine of the best passage counts less than the old rule gave it.
FITTED = AbstentionModel(
    means=(0.5305, 0.3596, 0.4797, 0.2711, 0.6120, 0.2617, 2.6089, 0.4133, 0.0035, 0.2086, 0.1758, 0.0240, 0.0381),
    scales=(0.2804, 0.1120, 0.2537, 0.1977, 0.4230, 0.1272, 0.7725, 0.3028, 0.0592, 0.3525, 0.3477, 0.1195, 0.1913),
    weights=(0.3046, 0.2161, 0.4771, -0.4892, 0.4884, 0.1668, 0.1765, 0.3178, -0.0459, 0.6177, 0.1382, -0.0729, -0.1509),
    bias=1.8668,
)
