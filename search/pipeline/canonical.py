"""Stage 1b: one entry per product, even when the catalog holds near-duplicate names."""

from rapidfuzz import fuzz

from search.pipeline.retrieval import Candidate

NEAR_DUPLICATE_RATIO = 90


def canonicalise(candidates: list[Candidate], names: dict[int, str], *, limit: int) -> list[Candidate]:
    """The best `limit` candidates with repeated ids dropped and names that are >= 90 % alike merged,
    keeping the higher-scored entry. Stops once `limit` are kept: each candidate is compared with the
    kept ones only, so the cost is bounded by candidates × limit, not candidates²."""
    kept: list[Candidate] = []
    kept_names: list[str] = []
    seen: set[int] = set()
    for candidate in sorted(candidates, key=lambda c: c.fused, reverse=True):
        if len(kept) >= limit:
            break
        if candidate.product_id in seen:
            continue
        name = names.get(candidate.product_id, "").casefold()
        if any(fuzz.ratio(name, other) >= NEAR_DUPLICATE_RATIO for other in kept_names):
            continue
        seen.add(candidate.product_id)
        kept.append(candidate)
        kept_names.append(name)
    return kept
