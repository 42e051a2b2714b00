"""Grading the fused candidates: is each one about this situation at all?

Offline the grade is the calibrated floors of stage 1 (similarity on the common scale, share of the
query's words; search.pipeline.run). With an LLM configured, the best candidates are also put to it
as one yes/no question each, with a deadline; only its verdicts on products we offered count, a
"no" takes the product out of the pool, and any failure keeps the offline grade.
"""

import json
import logging

from django.conf import settings

from catalog.models import UNUSED_IN_PYTHON, Product
from search.pipeline.llm_client import LLMError, chat_json, llm_product_id
from search.pipeline.retrieval import Candidate

logger = logging.getLogger(__name__)

GRADED = 10  # the candidates stage 2 looks at first; beyond them a verdict changes little
SYSTEM = (
    "Je beoordeelt voor Nederlandse arbeidsdeskundigen of interventies uit een catalogus over de beschreven "
    "situatie gaan. Zeg per kandidaat alleen of hij relevant is (true) of niet (false); rangschik niet. "
    'Antwoord uitsluitend met JSON: {"beoordeling": [{"product_id": <id>, "relevant": true|false}]}.'
)


def llm_grade(query: str, candidates: list[Candidate]) -> tuple[list[Candidate], dict] | None:
    """The candidates without those the LLM called irrelevant, and the grade; None when it gave no usable verdict."""
    top = candidates[:GRADED]
    products = Product.objects.defer(*UNUSED_IN_PYTHON).in_bulk([c.product_id for c in top])
    offered = [
        {"product_id": c.product_id, "naam": products[c.product_id].name, "omschrijving": products[c.product_id].description[:300]}
        for c in top
        if c.product_id in products
    ]
    if not offered:
        return None
    try:
        data = chat_json(
            system=SYSTEM, user=json.dumps({"situatie": query, "kandidaten": offered}, ensure_ascii=False),
            timeout=settings.LLM_GRADING_TIMEOUT_S, use="grading", max_tokens=600,
        )
    except LLMError as error:
        logger.warning("LLM grading skipped, keeping the offline grade: %s", error)
        return None
    verdicts = _verdicts(data, {entry["product_id"] for entry in offered})
    if not verdicts:
        logger.warning("LLM grading skipped, keeping the offline grade: no valid verdicts")
        return None
    irrelevant = {product_id for product_id, relevant in verdicts.items() if not relevant}
    kept = [c for c in candidates if c.product_id not in irrelevant]
    return kept, {"passed": len(verdicts) - len(irrelevant), "failed": len(irrelevant), "by": "llm"}


def _verdicts(data: dict, offered: set[int]) -> dict[int, bool]:
    """Verdicts on offered products only, each a real boolean; the first verdict on a product counts."""
    entries = data.get("beoordeling")
    verdicts: dict[int, bool] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("relevant"), bool):
            continue
        product_id = llm_product_id(entry.get("product_id"))
        if product_id in offered and product_id not in verdicts:
            verdicts[product_id] = entry["relevant"]
    return verdicts
