"""Seed 003 §4–§7's fire-once anchors: each intervention, run through the experiment's own
function on a few rows of any model, writes exactly its sites (harness.fire_once)."""
from __future__ import annotations

from harness.fire_once import FireOnce, Reference, Site, fire_once
from harness.sources.lookback.answers import answer_sweep
from harness.sources.lookback.interchange import binding_sweep, source_sweep
from harness.sources.lookback.low_rank import projected_iia, random_basis, swap_pairs
from harness.sources.lookback.positions import row_layout
from harness.sources.lookback.task import Layout
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import Counterfactual

FIRE_ROWS = 2  # rows each anchor writes to: a few, as any batch size holds them in one forward
SWEEPS = ("reversed", "same position", "opaque control")  # §4's three binding sweeps


def drink_states(lay: Layout) -> tuple[list[int], list[int]]:
    """§4's written positions, read off the layout here rather than through the experiment's
    own state_positions, so a mistake there shows: each drink and the token after it, then the
    same pairs in the other order."""
    first, second = [lay.drinks[0], lay.after_drinks[0]], [lay.drinks[1], lay.after_drinks[1]]
    return first + second, second + first


def _check(runner: LookbackRunner, run, sites_for) -> FireOnce:
    hf = runner.model.local()
    return fire_once(hf, hf.model.layers, hf.lm_head, run, sites_for)


def sweep_layers(runner: LookbackRunner) -> list[int]:
    """The layers an anchor sweeps: the first, the middle and the last (every kind of block:
    one with nothing before it, one with blocks on both sides, one with nothing after it)."""
    return sorted({0, runner.n_layers // 2, runner.n_layers - 1})


def _barrier_sites(refs: list[Reference], layers: list[int], k: int, src: list[int],
                   dst: list[int]) -> list[Site]:
    """Forward i of a layer sweep through the barrier writes block layers[i]: the counterfactual
    rows (first k) are read at `src` and written at `dst` of the clean rows (the next k)."""
    clean = tuple(range(k, 2 * k))
    return [Site(i, layer, clean, tuple(dst), refs[i].value(layer, range(k), src))
            for i, layer in enumerate(layers)]


def interchange_fires(runner: LookbackRunner, rows: list[Counterfactual]) -> dict[str, FireOnce]:
    """§4: each binding sweep, over the anchor's layers, writes the counterfactual's values at
    each layer in its own forward, at its own positions, on the clean rows only."""
    rows = rows[:FIRE_ROWS]
    lay = row_layout(runner, rows[0])
    state, state_rev = drink_states(lay)
    positions = {"reversed": (state, state_rev), "same position": (state, state),
                 "opaque control": (lay.opaque, lay.opaque[::-1])}
    layers = sweep_layers(runner)
    return {name: _check(runner, lambda name=name: binding_sweep(runner, rows, name, layers),
                         lambda refs, name=name: _barrier_sites(refs, layers, len(rows),
                                                                *positions[name]))
            for name in SWEEPS}


def answer_fires(runner: LookbackRunner, rows: list[Counterfactual]) -> FireOnce:
    """§6: the counterfactual's final-token residual written at each of the anchor's layers in
    its own forward."""
    rows, layers = rows[:FIRE_ROWS], sweep_layers(runner)
    return _check(runner, lambda: answer_sweep(runner, rows, layers),
                  lambda refs: _barrier_sites(refs, layers, len(rows), [-1], [-1]))


def _source_layers(runner: LookbackRunner) -> list[int]:
    return sorted({0, runner.n_layers // 2})


def source_fires(runner: LookbackRunner, rows: list[Counterfactual], freeze: bool) -> FireOnce:
    """§5: for each L, the edited forward holds the counterfactual's reversed-slot entity values
    at every block 0..L; with the freeze, the clean run's own drink values at every block."""
    rows, layers = rows[:FIRE_ROWS], _source_layers(runner)
    lay = row_layout(runner, rows[0])
    dst = lay.names + lay.objects
    src = [lay.names[1], lay.names[0], lay.names[3], lay.names[2], lay.objects[1], lay.objects[0]]
    drinks, _ = drink_states(lay)
    all_rows = tuple(range(len(rows)))

    def sites_for(refs: list[Reference]) -> list[Site]:
        cf, clean = refs[0], refs[1] if freeze else None  # the reads: counterfactual, then clean
        first = 2 if freeze else 1
        sites = []
        for offset, last in enumerate(layers):
            f = first + offset
            sites += [Site(f, j, all_rows, tuple(dst), cf.value(j, all_rows, src))
                      for j in range(last + 1)]
            if clean is not None:
                sites += [Site(f, j, all_rows, tuple(drinks), clean.value(j, all_rows, drinks))
                          for j in range(runner.n_layers)]
        return sites

    return _check(runner, lambda: source_sweep(runner, rows, layers, freeze), sites_for)


def low_rank_fires(runner: LookbackRunner, rows: list[Counterfactual]) -> FireOnce:
    """§7: the projected swap at the middle block writes h_dst + (h_src − h_dst)·BᵀB on the
    clean rows' drink positions, for a rank-1 random basis B, computed here from the unedited run."""
    rows, layer = rows[:FIRE_ROWS], runner.n_layers // 2
    state, state_rev = drink_states(row_layout(runner, rows[0]))
    k = len(rows)
    d = runner.model.hf.config.hidden_size

    def run() -> float:
        h_dst, h_src = swap_pairs(runner, rows, layer, state, state_rev)
        return projected_iia(runner, rows, layer, state, h_dst, h_src,
                             random_basis(d, 1, 0, like=h_src))

    def sites_for(refs: list[Reference]) -> list[Site]:
        h_src = refs[0].value(layer, range(k), state_rev)
        h_dst = refs[0].value(layer, range(k, 2 * k), state)
        basis = random_basis(d, 1, 0, like=h_src)
        delta = (h_src - h_dst).float()
        value = h_dst + (delta @ basis.T @ basis).to(h_dst.dtype)
        return [Site(1, layer, tuple(range(k, 2 * k)), tuple(state), value)]

    return _check(runner, run, sites_for)
