import pytest

from search.pipeline.fusion import RRF_K, reciprocal_rank_fusion


def test_it_rewards_items_that_rank_well_in_several_lists():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "c"]])
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert sorted(fused, key=fused.get, reverse=True) == ["b", "c", "a"]


def test_it_returns_nothing_for_empty_lists():
    assert reciprocal_rank_fusion([[], []]) == {}
