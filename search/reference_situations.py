"""Writes of the judged situations and questions that the ranking learns from (search.models.ReferenceSituation,
ReferenceQuestion).

Two kinds: the judged sets (files), and the specialists' votes, each voted search a situation of
source "feedback" (a net 👍 counts as "passend", a net 👎 as "hoort niet in de top 3").

A judged set (the JSON lines `manage.py evaluate` reads) is loaded whole or not at all: a line that
does not parse or names a product the catalog does not have stops the load with a Dutch message
naming it. The file is the truth for its source: loading it again updates what changed and removes
situations the file no longer has, so the load is idempotent.
"""

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from catalog.models import Product
from search.answer_evaluation import judged_questions_read
from search.evaluation import EvaluationInputError, JudgedQuery, judged_queries_read
from search.models import (
    FeedbackVote,
    ReferenceJudgement,
    ReferenceQuestion,
    ReferenceQuestionPlace,
    ReferenceSituation,
    SearchLog,
)
from search.pipeline.precedents import FEEDBACK_SOURCE
from search.question_embeddings import reference_question_embeddings_refresh


class ReferenceLoadError(Exception):
    """A judged set that cannot be loaded; the message is Dutch and names the file and line."""


@dataclass
class ReferenceLoad:
    source: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0

    def summary(self) -> str:
        return (
            f"{self.source}: {self.created} nieuw, {self.updated} bijgewerkt, "
            f"{self.unchanged} ongewijzigd, {self.removed} verwijderd"
        )


def reference_situations_load(*, path: Path) -> ReferenceLoad:
    """Load one judged set. A line judged to need no advice (`expect_empty`, or no product judged at all) is kept
    without judgements: searches much like it get none (search.pipeline.stage1). A line that only grades products 0
    says nothing either way and is left out."""
    try:
        judged = judged_queries_read(path)
    except EvaluationInputError as error:
        raise ReferenceLoadError(str(error)) from None
    catalog = dict(Product.objects.values_list("name", "id"))
    wanted = {}
    for q in judged:
        grades = frozenset(_grades(q, path, catalog).items())  # every line's product names are checked
        if _out_of_domain(q) or grades:
            wanted[q.id] = (q.query, frozenset() if _out_of_domain(q) else grades)
    return _source_sync(
        model=ReferenceSituation,
        related="judgements",
        source=path.stem,
        wanted=wanted,
        stored=lambda ids: ReferenceJudgement.objects.filter(situation_id__in=ids).values_list("situation_id", "product_id", "grade"),
        children=lambda situation, keys: [ReferenceJudgement(situation=situation, product_id=product_id, grade=grade) for product_id, grade in keys],
    )


def reference_questions_load(*, path: Path) -> ReferenceLoad:
    """Load one set of judged guideline questions; one the corpus cannot answer (no expected place) is
    kept without places, so questions asked like it are not answered either."""
    try:
        judged = judged_questions_read(path)
    except EvaluationInputError as error:
        raise ReferenceLoadError(str(error)) from None
    wanted = {
        q.id: (q.query, frozenset((place.document, article) for place in q.expect for article in place.articles if article))
        for q in judged
    }
    empty = sorted(q.id for q in judged if q.answerable and not wanted[q.id][1])
    if empty:
        raise ReferenceLoadError(f"{path}, vraag {empty[0]}: geen artikel bij het verwachte document.")
    report = _source_sync(
        model=ReferenceQuestion,
        related="places",
        source=path.stem,
        wanted=wanted,
        stored=lambda ids: ReferenceQuestionPlace.objects.filter(question_id__in=ids).values_list("question_id", "document_title", "article"),
        children=lambda question, keys: [ReferenceQuestionPlace(question=question, document_title=title, article=article) for title, article in keys],
    )
    reference_question_embeddings_refresh(source=report.source)
    return report


def _source_sync(*, model, related: str, source: str, wanted: dict[str, tuple[str, frozenset]], stored, children) -> ReferenceLoad:
    """Make the rows of one source what the file says: text and judgements per id, nothing more.
    `children(row, keys)` builds the unsaved child rows; new rows and all children are written in bulk
    (a demo reload writes ~6,500 rows: one by one that took 13 s)."""
    report = ReferenceLoad(source=source)
    with transaction.atomic():
        existing = {row.external_id: row for row in model.objects.select_for_update().filter(source=source)}
        current: dict[int, set] = defaultdict(set)
        for row_id, *key in stored([row.id for row in existing.values()]):
            current[row_id].add(tuple(key))
        created: list[tuple] = []
        changed: list[tuple] = []
        for external_id, (text, keys) in wanted.items():
            row = existing.get(external_id)
            if row is None:
                created.append((model(source=source, external_id=external_id, text=text), keys))
            elif row.text == text and current.get(row.id, set()) == set(keys):
                report.unchanged += 1
            else:
                row.text = text
                row.save(update_fields=["text", "updated_at"])
                getattr(row, related).all().delete()
                changed.append((row, keys))
        model.objects.bulk_create([row for row, _ in created], batch_size=1000)  # PostgreSQL returns their ids
        kids = [child for row, keys in created + changed for child in children(row, keys)]
        if kids:
            type(kids[0]).objects.bulk_create(kids, batch_size=2000)
        report.created, report.updated = len(created), len(changed)
        gone = [row.id for external_id, row in existing.items() if external_id not in wanted]
        report.removed = model.objects.filter(id__in=gone).delete()[1].get(model._meta.label, 0)
    return report


def _out_of_domain(q: JudgedQuery) -> bool:
    """Whether a judged line asks for no advice at all (as `evaluate` scores it: nDCG 1 only when empty)."""
    return q.expect_empty or not (q.rel or q.forbid)


def _grades(q: JudgedQuery, path: Path, ids: dict[str, int]) -> dict[int, int]:
    """Product id -> grade for one judged line; an unknown product name stops the load."""
    unknown = sorted(name for name in [*q.rel, *q.forbid] if name not in ids)
    if unknown:
        raise ReferenceLoadError(f"{path}, situatie {q.id}: onbekend product {', '.join(repr(n) for n in unknown)}.")
    bad = sorted(name for name, grade in q.rel.items() if grade not in (0, 1, 2))
    if bad:
        raise ReferenceLoadError(f"{path}, situatie {q.id}: oordeel moet 0, 1 of 2 zijn (bij {', '.join(bad)}).")
    grades = {ids[name]: grade for name, grade in q.rel.items() if grade > 0}
    grades.update({ids[name]: ReferenceJudgement.Grade.FORBIDDEN for name in q.forbid})
    return grades


def reference_situation_from_votes(*, search_id: int) -> None:
    """Make the votes on one search a judged situation (or remove it when the votes cancel out)."""
    with transaction.atomic():
        search = SearchLog.objects.select_for_update().get(id=search_id)  # two votes on one search: one at a time
        net: dict[int, int] = defaultdict(int)
        for product_id, value in FeedbackVote.objects.filter(
            recommendation__search_id=search_id, recommendation__product__isnull=False
        ).values_list("recommendation__product_id", "value"):
            net[product_id] += value
        grades = {
            product_id: ReferenceJudgement.Grade.ACCEPTABLE if total > 0 else ReferenceJudgement.Grade.FORBIDDEN
            for product_id, total in net.items()
            if total
        }
        situation = ReferenceSituation.objects.filter(source=FEEDBACK_SOURCE, external_id=str(search_id)).first()
        if not grades:
            if situation is not None:
                situation.delete()
            return
        if situation is None:
            situation = ReferenceSituation.objects.create(source=FEEDBACK_SOURCE, external_id=str(search_id), text=search.query)
        else:
            situation.judgements.all().delete()
            situation.save(update_fields=["updated_at"])
        ReferenceJudgement.objects.bulk_create(
            ReferenceJudgement(situation=situation, product_id=product_id, grade=grade) for product_id, grade in grades.items()
        )
