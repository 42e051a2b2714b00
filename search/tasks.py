"""Celery tasks of the search app; each is idempotent, so a redelivered message does no harm."""

from celery import shared_task

from jobs.retry import RETRY_POLICY
from search.product_acceptance import product_acceptance_refresh
from search.question_embeddings import reference_question_embeddings_refresh


@shared_task(**RETRY_POLICY)
def calibrate_product_acceptance() -> dict:
    """Replay every judged situation and store how often each product was accepted when shown."""
    result = product_acceptance_refresh()
    return {"situations": result.situations, "sources": result.sources, "rows": result.rows}


@shared_task(**RETRY_POLICY)
def refresh_reference_question_embeddings() -> int:
    """Embed the judged guideline questions whose text or model changed (after an edit in the admin)."""
    return reference_question_embeddings_refresh()
