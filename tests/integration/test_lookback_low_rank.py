"""Seed 003 §7's low-rank fit on the lookback organism: its directions and its difference vectors."""
from __future__ import annotations

import dataclasses

import pytest

from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.lookback.low_rank import low_rank
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import build_binding


@pytest.fixture(scope="module")
def runner() -> LookbackRunner:
    sizes = dataclasses.replace(get_profile("tiny").sizes["lookback"], low_rank_ranks=(1,))
    return LookbackRunner(load(get_profile("tiny").models["lookback"]), sizes)


def test_directions_count_the_basis_and_difference_vectors_the_deltas(runner):
    rows = build_binding(80, seed=7, instruction=runner.instruction)
    positions = len(state_positions(row_layout(runner, rows[0]))[0])
    width = runner.model.hf.config.hidden_size
    r = low_rank(runner, rows, layer=1)
    assert r.directions == width
    assert r.difference_vectors == r.fitted_on * positions > width
