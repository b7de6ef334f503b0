"""Seed 003's plan (harness/sources/lookback/plan.py): a per-layer step's published rows, by mode."""
from __future__ import annotations

from types import SimpleNamespace

from harness.profiles import Mode
from harness.sources.lookback.plan import per_chunk


def test_fast_mode_counts_the_one_counterfactual_read_per_chunk():
    """§4/§6: 2 chunks of the organism's 4 layers make 2 x (1 + 4) forwards, of Llama's 32 make
    2 x (1 + 32): 33/5 times as many."""
    scale, why = per_chunk(SimpleNamespace(mode=Mode.FAST), 32, 4, 1, "every layer")
    assert scale * 2 * (1 + 4) == 2 * (1 + 32)
    assert why.startswith("(32+1)/(4+1)")


def test_faithful_mode_scales_with_the_layers_alone():
    """§4/§6: a barrier forward per layer and chunk, no read apart."""
    assert per_chunk(SimpleNamespace(mode=Mode.FAITHFUL), 32, 4, 1, "every layer") == (
        8.0, "every layer")
