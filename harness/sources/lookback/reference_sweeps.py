"""Seed 003 §4–§6 written again as plain code (issue 49), one row at a time: the counterfactual's
block outputs read by plain forward hooks on one forward of its prompt, then written into the
clean prompt's forward at the positions the seed names (§4's three swaps at one block, §5's
source swap at blocks 0..L with or without the drinks frozen, §6's final token at one block)."""
from __future__ import annotations

from typing import Sequence

from harness.sources.lookback.reference import Answer, Places, Plain, Swap, Writes

SWEEPS = ("reversed", "same position", "opaque control")  # §4


def binding_positions(at: Places, name: str) -> tuple[list[int], list[int]]:
    """§4: the counterfactual's positions read and the clean run's written: the drinks (and the
    token after each) swapped (STATE_POS into STATE_POS_REV), copied straight across, or the two
    'opaque' tokens swapped (OPAQUE_POS into OPAQUE_REV)."""
    state = at.state
    return {"reversed": (state, state[2:] + state[:2]), "same position": (state, state),
            "opaque control": (at.opaque, at.opaque[::-1])}[name]


def binding(plain: Plain, swap: Swap, at: Places, name: str,
            layers: Sequence[int]) -> dict[int, Answer]:
    """§4: at each block of `layers`, the clean run's answer with the counterfactual's residuals
    at the read positions written at the written ones."""
    read, written = binding_positions(at, name)
    values = plain.read(swap.cf, read)
    return {layer: plain.answer(swap.clean, {layer: [(written, values[layer])]})
            for layer in layers}


def source_positions(at: Places) -> tuple[list[int], list[int], list[int]]:
    """§5: the counterfactual's positions read (each name and object of the other slot), the
    clean run's written (the register's SRC_POS: names then objects) and the drinks frozen."""
    n, o = at.names, at.objects
    return [n[1], n[0], n[3], n[2], o[1], o[0]], n + o, at.state


def source(plain: Plain, swap: Swap, at: Places, last: Sequence[int],
           freeze: bool) -> dict[int, Answer]:
    """§5: for each L of `last`, the clean run's answer with the counterfactual's entity residuals
    written at every block 0..L and, with the freeze, the drinks pinned at every block to the
    clean run's own values (read in a first, unedited pass)."""
    read, written, drinks = source_positions(at)
    values = plain.read(swap.cf, read)
    own = plain.read(swap.clean, drinks) if freeze else []
    out = {}
    for L in last:
        writes: Writes = {j: [(written, values[j])] for j in range(L + 1)}
        for j, pinned in enumerate(own):
            writes.setdefault(j, []).append((drinks, pinned))
        out[L] = plain.answer(swap.clean, writes)
    return out


def answer(plain: Plain, swap: Swap, at: Places, layers: Sequence[int]) -> dict[int, Answer]:
    """§6: at each block of `layers`, the clean run's answer with the counterfactual's final-token
    residual written at its final token."""
    final = [at.length - 1]
    values = plain.read(swap.cf, final)
    return {layer: plain.answer(swap.clean, {layer: [(final, values[layer])]})
            for layer in layers}


def peak(curve: Sequence[float], layers: Sequence[int]) -> int:
    """§4: the layer of the curve's highest value, the first of equals (the seed's max over
    range(N_LAYERS))."""
    best = 0
    for i, value in enumerate(curve):
        if value > curve[best]:
            best = i
    return layers[best]
