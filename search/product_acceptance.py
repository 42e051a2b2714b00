"""Calibrate product acceptance: replay the judged situations and count, per product and judged set,
the top-3 places it got and how many of them that set judged suitable (search.models.ProductAcceptance).

Each situation is searched without its own set's examples and without acceptance itself, so the
counts say how the rest of the ranking does, exactly as `evaluate` measures it. A run replaces the
counts of the sets it replays in one transaction; running it twice gives the same rows.
"""

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import transaction

from search.models import ProductAcceptance, ReferenceJudgement, ReferenceSituation
from search.pipeline.precedents import FEEDBACK_SOURCE
from search.pipeline.ranking.versions import active_ranking
from search.pipeline.request import SearchRequest
from search.pipeline.run import search_run

logger = logging.getLogger(__name__)
SHOWN = 3  # the places a specialist reads first, and the ones the judged sets grade


@dataclass
class AcceptanceRefresh:
    situations: int
    sources: int
    rows: int


def product_acceptance_refresh(*, sources: list[str] | None = None, progress: Callable[[int, int], None] | None = None) -> AcceptanceRefresh:
    """Replay the active judged situations (of `sources`, or all) and store their acceptance counts."""
    situations = ReferenceSituation.objects.filter(is_active=True, judgements__isnull=False).distinct().order_by("id")
    if sources is not None:
        situations = situations.filter(source__in=sources)
    if not settings.FEEDBACK_LEARNING_ENABLED:
        situations = situations.exclude(source=FEEDBACK_SOURCE)
    rows = list(situations.values_list("id", "source", "text"))
    suitable: dict[int, set[int]] = defaultdict(set)
    for situation_id, product_id in ReferenceJudgement.objects.filter(situation_id__in=[r[0] for r in rows], grade__gt=0).values_list(
        "situation_id", "product_id"
    ):
        suitable[situation_id].add(product_id)
    params = replace(active_ranking().params, acceptance_weight=0.0)
    shown: dict[tuple[int, str], int] = defaultdict(int)
    accepted: dict[tuple[int, str], int] = defaultdict(int)
    for done, (situation_id, source, text) in enumerate(rows, start=1):
        outcome = search_run(SearchRequest(query=text, top_k=SHOWN, held_out_source=source), params=params)
        for item in outcome.recommendations[:SHOWN]:
            shown[item.product.id, source] += 1
            accepted[item.product.id, source] += item.product.id in suitable[situation_id]
        if progress:
            progress(done, len(rows))
    replayed = sorted({source for _, source, _ in rows} | set(sources or ()))
    with transaction.atomic():
        stale = ProductAcceptance.objects.all() if sources is None else ProductAcceptance.objects.filter(source__in=replayed)
        stale.delete()
        ProductAcceptance.objects.bulk_create(
            ProductAcceptance(product_id=product_id, source=source, shown=count, accepted=accepted[product_id, source])
            for (product_id, source), count in shown.items()
        )
    logger.info("product acceptance calibrated on %d situations of %d sets: %d rows", len(rows), len(replayed), len(shown))
    return AcceptanceRefresh(situations=len(rows), sources=len(replayed), rows=len(shown))
