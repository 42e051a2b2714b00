"""Stage 1b: one entry per product, even when the catalog holds near-duplicate names."""

from rapidfuzz import fuzz

from search.pipeline.retrieval import Candidate

NEAR_DUPLICATE_RATIO = 90


def canonicalise(candidates: list[Candidate], names: dict[int, str]) -> list[Candidate]:
    """Drop repeated ids and merge names that are >= 90 % alike, keeping the higher-scored entry."""
    kept: list[Candidate] = []
    seen: set[int] = set()
    for candidate in sorted(candidates, key=lambda c: c.fused, reverse=True):
        if candidate.product_id in seen:
            continue
        name = names.get(candidate.product_id, "").casefold()
        if any(fuzz.ratio(name, names.get(other.product_id, "").casefold()) >= NEAR_DUPLICATE_RATIO for other in kept):
            continue
        seen.add(candidate.product_id)
        kept.append(candidate)
    return kept
