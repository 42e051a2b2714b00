"""Feedback learning: a per-product multiplier from the specialists' votes (docs/architecture.md, step 6)."""

import contextlib
import logging

from django.conf import settings
from django.db import DatabaseError, connection, transaction

logger = logging.getLogger(__name__)

MIN_VOTES = 10
MAX_SHIFT = 0.2


def multiplier_from_votes(up: int, total: int) -> float:
    """1.0 below 10 votes; otherwise 1 ± (ratio − 0.5)·0.4, so between 0.8 and 1.2."""
    if total < MIN_VOTES:
        return 1.0
    ratio = up / total
    return round(1.0 + max(-MAX_SHIFT, min(MAX_SHIFT, (ratio - 0.5) * 0.4)), 4)


def feedback_multipliers(product_ids: list[int]) -> tuple[dict[int, float], str]:
    """Multipliers per product; on a database error every product gets 1.0 and the reason is returned."""
    if not settings.FEEDBACK_LEARNING_ENABLED or not product_ids:
        return {}, ""
    # A savepoint only inside an outer transaction, which a failed read would otherwise break; alone,
    # the statement has nothing to roll back, and a transaction of its own costs two round trips a search.
    guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
    try:
        with guard, connection.cursor() as cursor:
            cursor.execute(
                """
                SELECT r.product_id, count(*) FILTER (WHERE v.value = 1), count(*)
                FROM search_feedbackvote v JOIN search_recommendation r ON r.id = v.recommendation_id
                WHERE r.product_id = ANY(%s)
                GROUP BY r.product_id
                """,
                [product_ids],
            )
            rows = cursor.fetchall()
    except DatabaseError as error:
        logger.error("Reading feedback votes failed; searching without feedback multipliers: %s", error)
        return {}, "feedback niet beschikbaar"
    return {product_id: multiplier_from_votes(up, total) for product_id, up, total in rows}, ""
