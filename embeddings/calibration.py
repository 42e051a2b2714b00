"""Map a model's cosines onto the reference (USE) scale, so one set of search thresholds fits every model.

Two models rank pairs alike but spread them differently (e5: 0.75–0.95; USE: −0.1–0.8). Matching
the median and the 99th percentile of the same query–text pairs under both models gives an affine
map common = (cosine − offset) · scale that keeps the thresholds' meaning: "as close as the closest
1 % of pairs" stays that under either model.
"""

from dataclasses import dataclass

import numpy as np

from embeddings.encoder import embed_documents, embed_query

LOW_QUANTILE, HIGH_QUANTILE = 50, 99


@dataclass(frozen=True)
class Calibration:
    offset: float
    scale: float
    pairs: int
    correlation: float  # Spearman-free check: Pearson of the two models' cosines over the same pairs


def calibration_fit(*, model: str, reference: str, queries: list[str], texts: list[str]) -> Calibration:
    ours = _cosines(model, queries, texts)
    theirs = _cosines(reference, queries, texts)
    low, high = np.percentile(ours, [LOW_QUANTILE, HIGH_QUANTILE])
    ref_low, ref_high = np.percentile(theirs, [LOW_QUANTILE, HIGH_QUANTILE])
    scale = (ref_high - ref_low) / (high - low)
    offset = low - ref_low / scale
    return Calibration(round(float(offset), 4), round(float(scale), 4), ours.size, round(float(np.corrcoef(ours, theirs)[0, 1]), 3))


def _cosines(model: str, queries: list[str], texts: list[str]) -> np.ndarray:
    query_vectors = np.stack([embed_query(query, model=model) for query in queries])
    return (query_vectors @ embed_documents(texts, model=model).T).ravel()
