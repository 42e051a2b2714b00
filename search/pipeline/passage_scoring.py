"""How a guideline passage's evidence for a question becomes one score: a linear model fitted on judged law questions.

Reciprocal rank fusion threw away how close in meaning a passage is and kept only its place in the
vector list; the fitted model keeps the cosine itself, adds the place in the BM25F list, and treats
the law's own text, a named article and the judged questions' vote as terms of the same sum.
`manage.py tune_passages` refits the weights leave-one-set-out over the judged question sets and
reports the held-out figures next to these (docs/measurements.md, twelfth session).
"""

from dataclasses import astuple, dataclass, fields

from search.pipeline.fusion import RRF_K


@dataclass(frozen=True)
class PassageWeights:
    """One weight per kind of evidence, fitted by `manage.py tune_passages` on the judged questions;
    standalone_rank on the guideline questions, as large as the law questions allow without losing any. The
    vote of the judged questions closest in meaning came in the twenty-third session: refitted with it,
    leave-one-set-out over 1,800 questions of 47 sets the right article is cited first for 1,596 (was 1,578)
    and among the first three for 1,719 (was 1,716), with less weight on the BM25F place (docs/measurements.md)."""

    similarity: float = 1.0  # cosine on the common (USE) scale: the closer in meaning, the better
    vector_rank: float = -0.2  # place by meaning; negative: past the cosine, a first place adds less than its rank term says
    lexical_rank: float = 0.35  # place in the BM25F list (heading weighted): the words of the law
    lexical_share: float = 0.2  # BM25F relative to the question's best: a tie-breaker between close places
    original_rank: float = 0.2  # the law's own text over the team's summary, in proportion to how well it ranks
    standalone_rank: float = 0.1  # the same for a summary that is all the corpus has of its source (a guideline, not a law)
    precedent_vote: float = 1.25  # the closest judged questions' vote for this passage's article or chapter
    named_article: float = 10.0  # the question names this article ("artikel 2.15"): first, whatever else
    meaning_vote: float = 0.5  # the vote of the judged questions closest in meaning (search.pipeline.question_votes)


FITTED = PassageWeights()
WEIGHT_NAMES = tuple(f.name for f in fields(PassageWeights))


@dataclass(frozen=True)
class PassageEvidence:
    """What retrieval knows about one passage for one question."""

    similarity: float
    vector_rank: int | None = None  # 1 = the closest; None when the vector list did not have it
    lexical_rank: int | None = None  # 1 = the best BM25F; None without a lexical match
    lexical_share: float = 0.0
    original: bool = True  # the regulation's own text, not a summary written by the team
    standalone: bool = False  # a summary whose source has no original text in the corpus (NVAB, STECR, …)
    named: bool = False
    vote: float = 0.0
    meaning_vote: float = 0.0

    def terms(self) -> tuple[float, ...]:
        """The value each weight multiplies, in the order of PassageWeights' fields."""
        by_vector, by_lexical = rank_term(self.vector_rank), rank_term(self.lexical_rank)
        return (
            self.similarity,
            by_vector,
            by_lexical,
            self.lexical_share,
            (by_vector + by_lexical) if self.original else 0.0,
            (by_vector + by_lexical) if self.standalone else 0.0,
            self.vote,
            1.0 if self.named else 0.0,
            self.meaning_vote,
        )


def rank_term(rank: int | None) -> float:
    """A place in a list as RRF weighs it, scaled so that the first place counts about 1."""
    return RRF_K / (RRF_K + rank) if rank else 0.0


def passage_score(evidence: PassageEvidence, weights: PassageWeights = FITTED) -> float:
    return sum(w * t for w, t in zip(astuple(weights), evidence.terms(), strict=True))
