"""Writes of the judged situations that stage 2 learns from (search.models.ReferenceSituation).

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
from search.evaluation import EvaluationInputError, JudgedQuery, judged_queries_read
from search.models import (
    FeedbackVote,
    ReferenceJudgement,
    ReferenceSituation,
    SearchLog,
)
from search.pipeline.precedents import FEEDBACK_SOURCE


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
    """Load one judged set; its situations without any judged product (out-of-domain lines) carry nothing to learn."""
    try:
        judged = [q for q in judged_queries_read(path) if q.rel or q.forbid]
    except EvaluationInputError as error:
        raise ReferenceLoadError(str(error)) from None
    catalog = dict(Product.objects.values_list("name", "id"))
    wanted = {q.id: _grades(q, path, catalog) for q in judged}
    report = ReferenceLoad(source=path.stem)
    with transaction.atomic():
        existing = {s.external_id: s for s in ReferenceSituation.objects.select_for_update().filter(source=path.stem)}
        stored = _stored_grades(existing.values())
        for q in judged:
            situation = existing.get(q.id)
            if situation is None:
                situation = ReferenceSituation.objects.create(source=path.stem, external_id=q.id, text=q.query)
                report.created += 1
            elif situation.text == q.query and stored.get(situation.id) == wanted[q.id]:
                report.unchanged += 1
                continue
            else:
                situation.text = q.query
                situation.save(update_fields=["text", "updated_at"])
                situation.judgements.all().delete()
                report.updated += 1
            ReferenceJudgement.objects.bulk_create(
                ReferenceJudgement(situation=situation, product_id=product_id, grade=grade) for product_id, grade in wanted[q.id].items()
            )
        gone = [s.id for external_id, s in existing.items() if external_id not in wanted]
        report.removed = ReferenceSituation.objects.filter(id__in=gone).delete()[1].get(ReferenceSituation._meta.label, 0)
    return report


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


def _stored_grades(situations) -> dict[int, dict[int, int]]:
    stored: dict[int, dict[int, int]] = {}
    for situation_id, product_id, grade in ReferenceJudgement.objects.filter(situation__in=list(situations)).values_list(
        "situation_id", "product_id", "grade"
    ):
        stored.setdefault(situation_id, {})[product_id] = grade
    return stored


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
