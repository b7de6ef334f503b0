"""Seed 003 §4–§7's fire-once anchors: each intervention, run through the experiment's own
function on a few rows of any model, writes exactly its sites (harness.fire_once).

Where a written value comes from the counterfactual or the clean run, the anchor finds that run
by the prompts it read, row by row (harness.prompt_rows), not by its place among the run's
forwards or a forward's rows: every forward here batches several different prompts (two
invokes, or a chunk of rows). A run that never read a prompt, or read the rows in another order
than it writes them, fails its anchor."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

import torch

from harness.declared_sites import At, Copy, Prompts, Reading, copied
from harness.fire_once import Reference, Site
from harness.interventions import Intervention
from harness.sources.lookback.answers import answer_sweep
from harness.sources.lookback.interchange import binding_sweep, source_sweep
from harness.sources.lookback.low_rank import (RANDOM_BASIS_SEEDS, projected_iia, random_basis,
                                               swap_pairs)
from harness.sources.lookback.positions import row_layout
from harness.sources.lookback.task import Layout
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import Counterfactual

FIRE_ROWS = 2  # rows each anchor writes to: a few, as any batch size holds them in one forward
SWEEPS = ("reversed", "same position", "opaque control")  # §4's three binding sweeps
# §7's random control as the register declares it: torch.linalg.qr(torch.randn(d, k,
# generator=manual_seed(seed)))[0].T, seeds 0, 1, 2. The anchor draws the first itself.
CONTROL_SEEDS = (0, 1, 2)


def drink_states(lay: Layout) -> tuple[list[int], list[int]]:
    """§4's written positions, read off the layout here rather than through the experiment's
    own state_positions, so a mistake there shows: each drink and the token after it, then the
    same pairs in the other order."""
    first, second = [lay.drinks[0], lay.after_drinks[0]], [lay.drinks[1], lay.after_drinks[1]]
    return first + second, second + first


def binding_positions(lay: Layout) -> dict[str, tuple[list[int], list[int]]]:
    """§4: each binding sweep's read (counterfactual) and written (clean) positions, off the
    layout here."""
    state, state_rev = drink_states(lay)
    return {"reversed": (state, state_rev), "same position": (state, state),
            "opaque control": (lay.opaque, lay.opaque[::-1])}


def entity_positions(lay: Layout) -> tuple[list[int], list[int]]:
    """§5: the counterfactual's positions read (each name and object of the other slot) and the
    clean run's positions written (the names, then the objects), off the layout here."""
    src = [lay.names[1], lay.names[0], lay.names[3], lay.names[2], lay.objects[1], lay.objects[0]]
    return src, lay.names + lay.objects


def control_basis(d: int, k: int, seed: int) -> torch.Tensor:
    """§7's random control drawn here, not by the experiment's random_basis: the register's
    orthonormal rows torch.linalg.qr(torch.randn(d, k, generator=manual_seed(seed)))[0].T, the
    standard normal drawn on the CPU (the same draw on any device), in float32."""
    draw = torch.randn(d, k, generator=torch.Generator(device="cpu").manual_seed(seed),
                       device="cpu")
    return torch.linalg.qr(draw)[0].T.to(torch.float32)


def prompts(runner: LookbackRunner, rows: Sequence[Counterfactual]) -> tuple[Prompts, Prompts]:
    """Each row's counterfactual and clean prompt ids as the experiment's traces read them (the
    tokenizer's, BOS first; the aligned prompts share one length, so no row is padded)."""
    return tuple(Prompts.of(what, [runner.model.tok(getattr(r, which)).input_ids for r in rows])
                 for what, which in (("counterfactual", "cf"), ("clean", "clean")))


def sweep_layers(runner: LookbackRunner) -> list[int]:
    """The layers an anchor sweeps: the first, the middle and the last (every kind of block:
    one with nothing before it, one with blocks on both sides, one with nothing after it)."""
    return sorted({0, runner.n_layers // 2, runner.n_layers - 1})


def _sweep_sites(runner: LookbackRunner, rows: list[Counterfactual], layers: list[int],
                 src: list[int], dst: list[int]) -> Callable[[list[Reference]], list[Site]]:
    """A layer sweep writes block layers[i] in the i-th of the last len(layers) forwards that
    read the clean prompts (found by its inputs: with the counterfactual rows beside them in
    faithful mode, alone after the counterfactual's one read in fast mode, which an own-values
    run's read of the clean prompts precedes), at `dst` of each row, the value its
    counterfactual prompt holds at `src` (from the forward that read it)."""
    cf, clean = prompts(runner, rows)
    return copied([Copy(clean, cf, layer, tuple(dst), tuple(src), Reading(i - len(layers)))
                   for i, layer in enumerate(layers)])


def own_rows(rows: Sequence[Counterfactual]) -> list[Counterfactual]:
    """Each row with its clean prompt as its counterfactual too: a sweep of them copies every
    position's own value where it reads the positions it writes."""
    return [replace(r, cf=r.clean) for r in rows]


def _swept(runner: LookbackRunner, rows: list[Counterfactual], sweep: Callable[..., object],
           src: list[int], dst: list[int]) -> Intervention:
    layers = sweep_layers(runner)
    return Intervention(runner.model.local(), lambda: sweep(runner, rows, layers),
                        _sweep_sites(runner, rows, layers, src, dst))


def binding_patch(runner: LookbackRunner, rows: list[Counterfactual],
                  name: str) -> Intervention:
    """§4's sweep `name` over the anchor's layers on the first rows: the counterfactual's values
    at each layer in its own forward, at its own positions, on the clean rows only; the
    same-position sweep, which reads the positions it writes, with its own-values run (whose
    two faithful-mode invokes read the same prompts, so its sites fall at the first invoke's
    rows; the identity judges every row of every forward alike)."""
    rows, positions = rows[:FIRE_ROWS], binding_positions(row_layout(runner, rows[0]))[name]

    def sweep(run: LookbackRunner, swept: list[Counterfactual], layers: list[int]) -> object:
        return binding_sweep(run, swept, name, layers)

    found = _swept(runner, rows, sweep, *positions)
    return replace(found, own=_swept(runner, own_rows(rows), sweep, *positions)) \
        if name == "same position" else found


def binding_patches(runner: LookbackRunner,
                    rows: list[Counterfactual]) -> dict[str, Intervention]:
    """§4: each binding sweep, declared."""
    return {name: binding_patch(runner, rows, name) for name in SWEEPS}


def answer_patch(runner: LookbackRunner, rows: list[Counterfactual]) -> Intervention:
    """§6: the counterfactual's final-token residual written at each of the anchor's layers in
    its own forward; its own-values run copies each clean row's own."""
    rows = rows[:FIRE_ROWS]
    return replace(_swept(runner, rows, answer_sweep, [-1], [-1]),
                   own=_swept(runner, own_rows(rows), answer_sweep, [-1], [-1]))


def source_patch(runner: LookbackRunner, rows: list[Counterfactual],
                 freeze: bool) -> Intervention:
    """§5: for each L, the edited forward holds the counterfactual's reversed-slot entity values
    at every block 0..L; with the freeze, the clean run's own drink values at every block. The
    values come from the forwards that read each row's counterfactual and clean prompts."""
    rows, layers = rows[:FIRE_ROWS], sorted({0, runner.n_layers // 2})  # the first and middle L
    lay = row_layout(runner, rows[0])
    src, dst = entity_positions(lay)
    drinks, _ = drink_states(lay)
    cf, clean = prompts(runner, rows)
    first = 2 if freeze else 1  # the edits follow the reads: counterfactual, then clean
    copies = []
    for offset, last in enumerate(layers):
        at = At(first + offset)
        copies += [Copy(clean, cf, j, tuple(dst), tuple(src), at) for j in range(last + 1)]
        if freeze:
            copies += [Copy(clean, clean, j, tuple(drinks), tuple(drinks), at)
                       for j in range(runner.n_layers)]
    return Intervention(runner.model.local(), lambda: source_sweep(runner, rows, layers, freeze),
                        copied(copies))


def projected(basis: torch.Tensor) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """§7's projected swap as a copy's combine: h_dst + (h_src − h_dst)·BᵀB, in float."""
    def combine(h_dst: torch.Tensor, h_src: torch.Tensor) -> torch.Tensor:
        delta = (h_src - h_dst).float()
        b = basis.to(delta.device)
        return h_dst + (delta @ b.T @ b).to(h_dst.dtype)

    return combine


def low_rank_patch(runner: LookbackRunner, rows: list[Counterfactual]) -> Intervention:
    """§7: the projected swap at the middle block writes h_dst + (h_src − h_dst)·BᵀB on the
    clean rows' drink positions, in the last forward that read them (the write follows the
    reads), for the experiment's first rank-1 random control B; h_src and h_dst come from the
    forwards that read each row's prompts, and B is drawn here from the register's first seed."""
    rows, layer = rows[:FIRE_ROWS], runner.n_layers // 2
    state, state_rev = drink_states(row_layout(runner, rows[0]))
    d = runner.model.hf.config.hidden_size
    cf, clean = prompts(runner, rows)

    def run() -> float:
        h_dst, h_src = swap_pairs(runner, rows, layer, state, state_rev)
        return projected_iia(runner, rows, layer, state, h_dst, h_src,
                             random_basis(d, 1, RANDOM_BASIS_SEEDS[0], like=h_src))

    return Intervention(runner.model.local(), run, copied([Copy(
        clean, cf, layer, tuple(state), tuple(state_rev), Reading(-1),
        combine=projected(control_basis(d, 1, CONTROL_SEEDS[0])))]))
