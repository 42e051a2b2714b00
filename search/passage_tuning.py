"""Fit the guideline-passage weights (search.pipeline.passage_scoring) on judged questions, leave-one-set-out.

Each judged set is one writer, so leaving a set out is leaving a writer out. Retrieval runs once per
question, with that question's own set kept from voting (as `evaluate` does); every trial then only
re-scores the candidates. A trial is measured as `evaluate` counts an answer: the first three
passages, one per section, and whether every expected place is among them (cited@1 and cited@3). The
search is coordinate ascent over a grid per weight, from the current weights; the weight of a named
article is left alone (too few questions name one). What to report is the held-out figure: for each
set the weights fitted on the others, against the current weights on the same set.
"""

from collections.abc import Sequence
from dataclasses import astuple, dataclass, field, replace

import numpy as np

from embeddings.selectors import query_embedding
from search.answer_evaluation import JudgedQuestion
from search.pipeline.passage_scoring import FITTED, WEIGHT_NAMES, PassageWeights
from search.pipeline.passages import passage_candidates

# Values a weight may take; negative ones too, small, so a signal that is already in another may correct it.
GRID = (0.0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, -0.05, -0.1, -0.2, -0.35, -0.5)
FIXED = frozenset({"named_article"})
PASSES = 3
CITED = 3


@dataclass
class QuestionCandidates:
    """One judged question's candidates: the terms each weight multiplies, where each stands, what it matches."""

    source: str
    expected: int
    terms: np.ndarray  # one row per candidate, one column per weight
    places: list[tuple[str, str]]  # (document title, section): an answer cites one passage per section
    matches: list[frozenset[int]]  # which expected places each candidate is


@dataclass(frozen=True)
class Figures:
    questions: int = 0
    cited_at_1: int = 0
    cited_at_3: int = 0

    def __add__(self, other: "Figures") -> "Figures":
        return Figures(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))

    @property
    def objective(self) -> int:
        return self.cited_at_1 + self.cited_at_3


@dataclass
class FoldResult:
    held_out: str
    current: Figures
    fitted: Figures
    weights: PassageWeights


@dataclass
class PassageTuning:
    folds: list[FoldResult] = field(default_factory=list)
    in_sample: Figures = Figures()
    fitted_on_all: PassageWeights = FITTED
    reachable: int = 0  # questions with every expected place among the candidates: the ceiling of any weights

    @property
    def current_held_out(self) -> Figures:
        return sum((f.current for f in self.folds), Figures())

    @property
    def fitted_held_out(self) -> Figures:
        return sum((f.fitted for f in self.folds), Figures())


def question_candidates(question: JudgedQuestion) -> QuestionCandidates:
    embedding = query_embedding(question.query).params()
    candidates = passage_candidates(question.query, embedding=embedding, held_out_source=question.source)
    ids = list(candidates.evidence)
    return QuestionCandidates(
        source=question.source,
        expected=len(question.expect),
        terms=np.array([candidates.evidence[i].terms() for i in ids], dtype=float).reshape(len(ids), len(WEIGHT_NAMES)),
        places=[(candidates.chunks[i].document_title, candidates.chunks[i].section) for i in ids],
        matches=[frozenset(n for n, place in enumerate(question.expect) if place.matches(candidates.chunks[i])) for i in ids],
    )


def first_cited(candidates: QuestionCandidates, weights: PassageWeights) -> int | None:
    """The smallest k at which every expected place is among the first k cited passages, or None."""
    order = np.argsort(-(candidates.terms @ np.array(astuple(weights))), kind="stable")
    seen: set[tuple[str, str]] = set()
    found: dict[int, int] = {}
    for index in order:
        if candidates.places[index] in seen:
            continue
        seen.add(candidates.places[index])
        for place in candidates.matches[index]:
            found.setdefault(place, len(seen))
        if len(seen) == CITED:
            break
    return max(found.values()) if len(found) == candidates.expected else None


def figures(questions: Sequence[QuestionCandidates], weights: PassageWeights) -> Figures:
    ranks = [first_cited(q, weights) for q in questions]
    return Figures(len(ranks), sum(r == 1 for r in ranks), sum(r is not None for r in ranks))


def weights_fit(questions: Sequence[QuestionCandidates], start: PassageWeights = FITTED) -> PassageWeights:
    """Coordinate ascent: per weight the grid value that cites best, until a pass changes nothing."""
    best, best_score = start, figures(questions, start).objective
    for _ in range(PASSES):
        improved = False
        for name in WEIGHT_NAMES:
            if name in FIXED:
                continue
            for value in GRID:
                trial = replace(best, **{name: value})
                score = figures(questions, trial).objective
                if score > best_score:
                    best, best_score, improved = trial, score, True
        if not improved:
            break
    return best


def passages_tune(questions: Sequence[JudgedQuestion], *, current: PassageWeights = FITTED) -> PassageTuning:
    """Leave each judged set out in turn: fit on the others, measure on it, against the current weights."""
    candidates = [question_candidates(q) for q in questions if q.answerable]
    sources = sorted({c.source for c in candidates})
    report = PassageTuning(reachable=sum(len(set().union(*c.matches)) == c.expected for c in candidates if c.matches))
    for source in sources:
        training = [c for c in candidates if c.source != source]
        held_out = [c for c in candidates if c.source == source]
        weights = weights_fit(training, current)
        report.folds.append(FoldResult(source, figures(held_out, current), figures(held_out, weights), weights))
    report.fitted_on_all = weights_fit(candidates, current)
    report.in_sample = figures(candidates, report.fitted_on_all)
    return report
