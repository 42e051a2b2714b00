"""Reciprocal rank fusion, the one place both product and passage retrieval merge ranked lists."""

from collections.abc import Hashable, Iterable

RRF_K = 60  # Cormack et al. (2009); the constant damps the weight of the very first ranks


def reciprocal_rank_fusion(rankings: Iterable[list[Hashable]], *, k: int = RRF_K) -> dict[Hashable, float]:
    """Sum of 1/(k + rank) over every list an item appears in (rank 1 is the best)."""
    fused: dict[Hashable, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank)
    return fused
