"""Seed 004's and the tutorial's plain references (issue 49): the cells they re-run (all of an
organism's sweep; sampled blocks at sampled and differing positions of GPT-2's) and the
normalisation's ends."""
from __future__ import annotations

import pytest

from harness.sources.ioi_tutorial import reference as tutorial
from harness.sources.patching import reference
from harness.sources.patching.against_reference import RECORDED_DIFF


@pytest.mark.parametrize("module", [reference, tutorial])
def test_a_small_sweep_is_re_run_whole(module):
    assert module.cells(4, 15, [2, 4, 10]) == [(layer, p) for layer in range(4) for p in range(15)]


@pytest.mark.parametrize("module", [reference, tutorial])
def test_a_large_sweep_is_re_run_at_sampled_blocks_and_every_differing_position(module):
    assert module.cells(12, 16, [9]) == [(layer, p) for layer in (0, 6, 11) for p in (0, 8, 9, 15)]


def test_the_normalisation_runs_from_the_corrupted_run_to_the_clean_one():
    assert reference.normalise(-1.0, -1.0, 3.0) == 0.0
    assert reference.normalise(3.0, -1.0, 3.0) == 1.0
    assert reference.normalise(0.0, -1.0, 3.0) == 0.25


def test_nothing_is_normalised_between_equal_ends():
    assert reference.normalise(0.5, 2.0, 2.0) is None


def test_a_sweep_anchors_difference_carried_across_one_rounding_boundary_is_not_drift():
    drifted = abs(round(12.34565 + 1e-6, 4) - round(12.34565 - 1e-6, 4))  # 1e-4 and a float64 ulp
    assert RECORDED_DIFF["organism_tolerance"].allows(0.0, drifted)


def test_a_sweep_anchors_difference_beyond_its_raw_bound_is_drift():
    assert not RECORDED_DIFF["organism_tolerance"].allows(0.0, 3e-4)
