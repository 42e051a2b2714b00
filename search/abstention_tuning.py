"""Fit the abstention model (search.pipeline.abstention) on judged questions, leave-one-set-out.

Each judged set is one writer. Retrieval runs once per question with the question's own set kept from
voting (as `evaluate` does); the fit then only sees the evidence. A fold fits an L2-regularised
logistic regression on the other sets, picks the decision threshold that makes the fewest mistakes
on those sets (an answerable question left silent counts SILENT_COST times an unanswerable one answered),
and measures the held-out set with both. What to report is the held-out count next to the current
model's on the same sets.
"""

from collections.abc import Sequence
from dataclasses import astuple, dataclass, field

import numpy as np

from search.answer_evaluation import JudgedQuestion
from search.pipeline.abstention import FITTED, AbstentionModel, AnswerEvidence
from search.pipeline.passages import OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE, passages_retrieve

L2 = 0.1  # chosen leave-one-set-out (0.001 / 0.01 / 0.1: 39 / 38 / 36 mistakes over 1,638 questions, equal costs)
ITERATIONS = 3000
LEARNING_RATE = 0.5
THRESHOLDS = tuple(round(0.2 + 0.05 * step, 2) for step in range(11))  # 0.2 … 0.7
# A law article kept from a specialist costs more than a near miss whose passages they can see do not fit. At 1.5
# leave-one-set-out keeps about as many answerable questions silent as the hand-set rule did (11-12 of 1,250, the
# rule 11) and answers 32-34 of 458 unanswerable ones (the rule 45); at 1.0 it answers 31 but keeps 17 silent.
SILENT_COST = 1.5


class AbstentionTuningError(Exception):
    """The judged questions give nothing to fit on (a Dutch message for the command line)."""


@dataclass
class QuestionEvidence:
    source: str
    answerable: bool
    blocked: bool  # names a regulation the corpus does not hold: never answered
    evidence: AnswerEvidence | None  # None without any passage
    # names a subject outside the corpus that its best passages do not: answered only when the model is nearly sure
    outside_topic: bool = False


@dataclass(frozen=True)
class Mistakes:
    silent: int = 0  # answerable questions the model keeps silent on
    answered: int = 0  # unanswerable questions it answers
    answerable: int = 0
    unanswerable: int = 0

    @property
    def total(self) -> int:
        return self.silent + self.answered

    @property
    def cost(self) -> float:
        return SILENT_COST * self.silent + self.answered

    def __add__(self, other: "Mistakes") -> "Mistakes":
        return Mistakes(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


@dataclass
class Fold:
    held_out: str
    current: Mistakes
    fitted: Mistakes


@dataclass
class AbstentionReport:
    folds: list[Fold] = field(default_factory=list)
    current_held_out: Mistakes = Mistakes()
    fitted_held_out: Mistakes = Mistakes()
    in_sample: Mistakes = Mistakes()
    fitted_on_all: AbstentionModel = FITTED


def evidence_collect(questions: Sequence[JudgedQuestion]) -> list[QuestionEvidence]:
    """Retrieval once per question, its own set held out."""
    collected = []
    for question in questions:
        retrieval = passages_retrieve(question.query, held_out_source=question.source)
        collected.append(
            QuestionEvidence(
                question.source,
                question.answerable,
                bool(retrieval.unheld_regulations),
                retrieval.answer_evidence() if retrieval.passages else None,
                outside_topic=bool(retrieval.uncovered_topics),
            )
        )
    return collected


def model_fit(rows: Sequence[QuestionEvidence]) -> AbstentionModel:
    """Logistic regression on standardised terms, the threshold with the fewest mistakes folded into the bias."""
    usable = [row for row in rows if row.evidence is not None]
    if not usable:
        raise AbstentionTuningError("Geen enkele beoordeelde vraag vond passages: er is niets om op te fitten. Is het corpus ingelezen?")
    terms = np.array([row.evidence.terms() for row in usable])
    missing = np.isnan(terms)
    if missing.any():  # a term without a value sits at its mean (AbstentionModel.confidence); a column without any at 0
        known = np.where(missing, 0.0, terms).sum(axis=0) / np.maximum((~missing).sum(axis=0), 1)
        terms = np.where(missing, known, terms)
    labels = np.array([1.0 if row.answerable else 0.0 for row in usable])
    means, scales = terms.mean(axis=0), terms.std(axis=0)
    scales[scales == 0] = 1.0
    standardised = np.hstack([(terms - means) / scales, np.ones((len(usable), 1))])
    weights = np.zeros(standardised.shape[1])
    for _ in range(ITERATIONS):
        predicted = 1.0 / (1.0 + np.exp(-standardised @ weights))
        gradient = standardised.T @ (predicted - labels) / len(usable) + L2 * np.r_[weights[:-1], 0.0]
        weights -= LEARNING_RATE * gradient
    model = AbstentionModel(tuple(means.tolist()), tuple(scales.tolist()), tuple(weights[:-1].tolist()), float(weights[-1]))
    threshold = min(THRESHOLDS, key=lambda t: mistakes_count(_shifted(model, t), rows).cost)
    return _shifted(model, threshold)


def _shifted(model: AbstentionModel, threshold: float) -> AbstentionModel:
    """The same model whose confidence is 0.5 where the original's was `threshold`."""
    logit = float(np.log(threshold / (1.0 - threshold)))
    return AbstentionModel(model.means, model.scales, model.weights, model.bias - logit)


def mistakes_count(model: AbstentionModel, rows: Sequence[QuestionEvidence]) -> Mistakes:
    silent = answered = 0
    for row in rows:
        needed = OUTSIDE_TOPIC_OVERRIDE_CONFIDENCE if row.outside_topic else 0.5
        answers = not row.blocked and row.evidence is not None and model.confidence(row.evidence) >= needed
        silent += row.answerable and not answers
        answered += (not row.answerable) and answers
    answerable = sum(1 for row in rows if row.answerable)
    return Mistakes(silent, answered, answerable, len(rows) - answerable)


def abstention_tune(questions: Sequence[JudgedQuestion], *, model: AbstentionModel = FITTED) -> AbstentionReport:
    rows = evidence_collect(questions)
    report = AbstentionReport()
    for source in sorted({row.source for row in rows}):
        held_out = [row for row in rows if row.source == source]
        fitted = model_fit([row for row in rows if row.source != source])
        fold = Fold(source, mistakes_count(model, held_out), mistakes_count(fitted, held_out))
        report.folds.append(fold)
        report.current_held_out += fold.current
        report.fitted_held_out += fold.fitted
    report.fitted_on_all = model_fit(rows)
    report.in_sample = mistakes_count(report.fitted_on_all, rows)
    return report
