"""Whether the corpus answers a guideline question: a logistic model over the retrieval's evidence, fitted on judged questions.

The hand-set rule it replaces (a cosine threshold, a word-coverage threshold, and exceptions for short
questions, practice terms and the judged questions' votes) was tuned over many sessions on the same
judged sets it was measured on. The model weighs the same evidence at once and is refitted by
`manage.py tune_abstention`, which reports it leave-one-set-out: each set is one writer, measured with
the model fitted on the others (docs/measurements.md, seventeenth session). A question that names a
regulation the corpus does not hold is not answered whatever the model says; one that names a subject
the corpus does not cover only when the model is nearly sure (search.pipeline.passages).

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
# The vouching counts by how close the voters are (vote × character closeness): "banden wisselen" got a vote of 0.6
# from questions about a garage's young helper at closeness 0.36. Leave-one-set-out over 2,397 questions, 0.5 on
# the vote alone: 9 kept silent, 42 answered; 0.15 / 0.25 / 0.35 on vote × closeness: 9 / 43, 9 / 41, 9 / 40
# (docs/measurements.md, twenty-third session).
WEAK_SEARCH_BOX_CLOSE_VOUCHING = 0.35


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
    domain_terms: int = 0  # entries of the catalog thesaurus (how people name health and work matters) it names
    # share of the judged questions closest in meaning that the corpus answered (search.pipeline.question_votes);
    # None when no judged question has a vector of the active model: the term then weighs nothing (nor for a
    # search-box question)
    answered_vote: float | None = None

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
            1.0 if self._search_box_outside_domain() else 0.0,
            # A vote counts by how close its voters are: the few nearest judged questions agree on a place however
            # far they are ("kat vaccineren dierenarts" and a vet's assistant's vaccination question).
            self.vouched * self.answered_closeness,
            # A few words give a vector whose neighbours share any one of them ("banden wisselen" sits among judged
            # questions about a garage's young helper): for a search-box question the vote says nothing.
            math.nan if self.answered_vote is None or self.words <= SEARCH_BOX_WORDS else self.answered_vote,
        )

    def _weak_search_box(self) -> bool:
        """A few everyday words, nothing close in meaning, no close judged question vouching: "banden wisselen"."""
        return (
            self.words <= SEARCH_BOX_WORDS
            and not self.practice_terms
            and self.similarity < WEAK_SEARCH_BOX_SIMILARITY
            and self.vouched * self.answered_closeness < WEAK_SEARCH_BOX_CLOSE_VOUCHING
        )

    def _search_box_outside_domain(self) -> bool:
        """A few words naming nothing of work or health in the words of either list: "douche ontkalken",
        "trapladder aanbieding". 52 answerable and 80 unanswerable judged questions look like this; as a term
        of its own, leave-one-set-out mistakes went from 58 to 53 of 1,948 (docs/measurements.md, nineteenth session)."""
        return self.words <= SEARCH_BOX_WORDS and not self.practice_terms and not self.domain_terms


TERM_NAMES = (
    "coverage", "similarity", "answered_closeness", "unanswerable_closeness", "vouched", "first_similarity",
    "log_words", "practice_terms", "covered_topic", "closer_to_answered", "search_box_coverage", "search_box_coverage_plain",
    "weak_search_box", "search_box_outside_domain", "vouched_by_close", "answered_vote",
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
        # A term without a value (NaN) sits at its mean: it moves the confidence neither way.
        z = self.bias + sum(
            w * (t - m) / s for w, t, m, s in zip(self.weights, evidence.terms(), self.means, self.scales, strict=True) if not math.isnan(t)
        )
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


# Fitted by `manage.py tune_abstention` on all 2,548 judged questions of 47 sets (the values it prints as "fitted on
# all"). Leave-one-set-out it keeps 10 of 1,800 answerable questions silent and answers 41 of 748 unanswerable ones;
# without the last term (the vote of the judged questions closest in meaning, search.pipeline.question_votes) 11 and
# 62 (docs/measurements.md, twenty-third session). Largest weights: that vote, closer in characters to a judged
# answerable than to a judged unanswerable question, the judged questions' vote for a best passage, and word coverage.
FITTED = AbstentionModel(
    means=(0.5852, 0.3571, 0.4765, 0.3056, 0.6304, 0.2547, 2.7078, 0.4158, 0.0063, 0.1709, 0.1513, 0.0191, 0.0286, 0.0443, 0.3584, 0.7340),
    scales=(0.2728, 0.1105, 0.2447, 0.2007, 0.4089, 0.1279, 0.7806, 0.3075, 0.0790, 0.3535, 0.3280, 0.1077, 0.1668, 0.2059, 0.3112, 0.3505),
    weights=(0.2701, 0.1358, 0.3881, -0.3988, 0.3190, 0.1465, 0.1322, 0.2230, -0.0520, 0.4950, 0.1121, -0.0366, -0.1083, -0.1108, 0.2958, 0.6546),
    bias=1.7546,
)
