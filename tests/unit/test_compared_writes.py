"""harness.compared_writes' rule for what a write can move: in its own forward, what lies after it
in the block order (a block's input, its heads, its output; then the next block), by cells where
no attention lies between; in a later step of its decode loop, only what reads a cache it moved."""
from __future__ import annotations

import pytest
import torch

from harness.compared_writes import reaches
from harness.replay import Site

V = torch.zeros(1, 1, 4)
INPUT, HEADS, OUTPUT = (Site(0, 1, (0,), (2,), V, block_input=True),
                        Site(0, 1, (0,), (2,), V, (0, 4)), Site(0, 1, (0,), (2,), V))


@pytest.mark.parametrize(("site", "layer", "place", "moved"), [
    (INPUT, 1, "input", None), (INPUT, 1, "heads", "rows"), (INPUT, 1, "output", "rows"),
    (INPUT, 0, "output", None), (HEADS, 1, "heads", None), (HEADS, 1, "output", "cells"),
    (HEADS, 1, "input", None), (HEADS, 2, "input", "rows"), (OUTPUT, 1, "output", None),
    (OUTPUT, 2, "input", "rows"), (OUTPUT, 1, "heads", None)])
def test_in_its_own_forward_a_write_moves_what_lies_after_it(site, layer, place, moved):
    assert reaches(site, layer, place, same_forward=True) == moved


@pytest.mark.parametrize(("site", "layer", "place", "moved"), [
    (INPUT, 1, "input", None), (INPUT, 1, "heads", "rows"), (INPUT, 2, "input", "rows"),
    (HEADS, 1, "output", None), (HEADS, 2, "input", None), (HEADS, 2, "heads", "rows"),
    (OUTPUT, 1, "output", None), (OUTPUT, 2, "output", "rows"), (OUTPUT, 2, "input", None)])
def test_in_a_later_step_a_write_moves_only_what_reads_a_cache_it_moved(site, layer, place, moved):
    assert reaches(site, layer, place, same_forward=False) == moved
