"""Seed 003's readback anchors (issue 36): what §4–§6's sweeps recorded, read back.

Coverage: each sweep patched every block of the model's config (or the layers the sizes
declare), in order, with one curve value and one answer per row at each, at the positions the
layout names (read off here, as the fire-once anchors read them, not through the experiment's
helpers). Rows: a few rows of each sweep, re-run one row at a time through the experiment's own
intervention, answer what the batched sweep recorded for them (in the mode under test: fast
mode's batches or faithful mode's); and each curve is the fraction of the recorded answers equal
to that curve's answer, counted here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.fire_once import binding_positions, drink_states, entity_positions
from harness.sources.lookback.interchange import (SourceSweep, Sweep, interchange_logits,
                                                  source_logits)
from harness.sources.lookback.positions import row_layout
from harness.sources.lookback.readback_record import Readback, answered, spread
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import Counterfactual, Layout

SOURCE_SIZES = {True: "source_freeze_layers", False: "source_plain_layers"}  # §5, by freeze


def sweep_layers_expected(runner: LookbackRunner) -> tuple[list[int], str]:
    """The layers a §4 or §6 sweep must patch, and why: the sizes' sweep_layers where declared,
    else every block of the model's config."""
    declared = runner.sizes.sweep_layers
    if declared is None:
        n = runner.model.hf.config.num_hidden_layers
        return list(range(n)), f"every block of the model's config ({n})"
    return list(declared), "the sizes' sweep_layers"


def _layer_gaps(what: str, recorded: list[int], expected: list[int], why: str,
                curves: dict[str, list[float]], preds: list[list[str]], n: int,
                rows: int) -> list[str]:
    """Where a sweep's record differs from `expected` layers (in order), one value per layer in
    each curve, one answer per row at each layer, and its row count."""
    gaps = []
    if recorded != expected:
        gaps.append(f"{what}: layers {recorded}, expected {expected} ({why})")
    for name, curve in curves.items():
        if len(curve) != len(expected):
            gaps.append(f"{what}: {name} has {len(curve)} values for {len(expected)} layers")
    if len(preds) != len(expected) or any(len(p) != rows for p in preds):
        depth = sorted({len(p) for p in preds})
        gaps.append(f"{what}: answers recorded at {len(preds)} layers, for {depth} rows; "
                    f"expected {len(expected)} layers of {rows}")
    if n != rows:
        gaps.append(f"{what}: n = {n}, for {rows} rows")
    return gaps


def _position_gaps(what: str, recorded: dict[str, list[int]], expected: dict[str, list[int]],
                   length: int) -> list[str]:
    """Where the positions a sweep recorded differ from the layout's (a negative position counts
    from the end of the prompt)."""
    return [f"{what}: {kind} positions {recorded[kind]}, expected {want}"
            for kind, want in expected.items()
            if [p % length for p in recorded[kind]] != [p % length for p in want]]


def _rescored(found: Readback, what: str, curves: dict[str, list[float]], attrs: dict[str, str],
              layers: list[int], preds: list[list[str]], rows: list[Counterfactual]) -> None:
    """Each curve's value at each recorded layer against the fraction of that layer's recorded
    answers equal to each row's answer for the curve, counted here."""
    for curve, attr in attrs.items():
        for i, (layer, answers) in enumerate(zip(layers, preds)):
            if i >= len(curves[curve]):
                break  # the coverage reports a short curve
            hits = sum(1 for answer, row in zip(answers, rows) if answer == getattr(row, attr))
            counted = round(hits / len(rows), 4)
            if curves[curve][i] != counted:
                found.mismatched.append(f"{what}: {curve} at layer {layer} is {curves[curve][i]}, "
                                        f"its recorded answers give {counted} against {attr}")


def _cell(runner: LookbackRunner, found: Readback, what: str, layers: list[int],
          preds: list[list[str]], layer: int, row: int, logits: torch.Tensor | None) -> None:
    """One cell: the answer the sweep recorded for `row` at `layer` against the top tokens of
    the same row run alone (`logits`, its final logits)."""
    found.cells.append(what)
    try:
        recorded = preds[layers.index(layer)][row]
    except (ValueError, IndexError):
        found.mismatched.append(f"{what}: not in the sweep")
        return
    answered(runner, found, what, "the sweep", recorded, logits)


@dataclass(frozen=True)
class Swept:
    """One sweep as its readback reads it: the layers (or L) it recorded and those it must cover
    (and why), each curve with the row attribute whose answers it counts, its answers [layer][row]
    and n, each kind of position it recorded with the layout's, and one row re-run alone at
    given layers (`alone`: the row's final logits at each, None where it gave none)."""

    name: str
    layers: list[int]
    expected: list[int]
    why: str
    curves: dict[str, tuple[list[float], str]]
    preds: list[list[str]]
    n: int
    positions: dict[str, tuple[list[int], list[int]]]
    alone: Callable[[Counterfactual, list[int]], list[torch.Tensor | None]]
    cell: str = "layer {}"  # how a re-run cell names its layer
    outside: tuple[str, ...] = ()  # declared layers that are not blocks of the model's config


def gaps(swept: Swept, rows: int, length: int) -> list[str]:
    """Where a sweep's record differs from the layers it must cover, one curve value per layer,
    one answer per row at each, its row count and the layout's positions."""
    curves = {name: values for name, (values, _) in swept.curves.items()}
    return [*swept.outside, *_layer_gaps(swept.name, swept.layers, swept.expected, swept.why,
                                          curves, swept.preds, swept.n, rows),
            *_position_gaps(swept.name, {k: got for k, (got, _) in swept.positions.items()},
                            {k: want for k, (_, want) in swept.positions.items()}, length)]


def rows_read_back(runner: LookbackRunner, rows: list[Counterfactual], swept: Swept,
                   found: Readback) -> None:
    """Each curve re-counted from the recorded answers, and the first, middle and last rows at
    the first, middle and last layers it must cover re-run one row at a time."""
    _rescored(found, swept.name, {k: values for k, (values, _) in swept.curves.items()},
              {k: attr for k, (_, attr) in swept.curves.items()}, swept.layers, swept.preds, rows)
    at = spread(swept.expected)
    for r in spread(range(len(rows))):
        for layer, logits in zip(at, swept.alone(rows[r], at)):
            _cell(runner, found, f"{swept.name}: {swept.cell.format(layer)} row {r}",
                  swept.layers, swept.preds, layer, r, logits)


def read_back(runner: LookbackRunner, rows: list[Counterfactual], names: list[str],
              swept: Callable[[Layout], list[Swept]]) -> Readback:
    """A study's sweeps (`swept` of the first row's layout) read back: every sweep's coverage
    gaps, then each one's rows."""
    if not rows:
        return Readback(names, ["no rows to read back"])
    lay = row_layout(runner, rows[0])
    sweeps = swept(lay)
    found = Readback(names, [g for s in sweeps for g in gaps(s, len(rows), lay.length)])
    for s in sweeps:
        rows_read_back(runner, rows, s, found)
    return found


def binding(runner: LookbackRunner, rows: list[Counterfactual],
            sweeps: dict[str, Sweep]) -> Readback:
    """§4's three binding sweeps read back, at the layout's read and written positions."""
    expected, why = sweep_layers_expected(runner)

    def swept(name: str, s: Sweep, src: list[int], dst: list[int]) -> Swept:
        return Swept(name, s.layers, expected, why,
                     {"iia": (s.iia, "target"), "clean_survives": (s.clean_survives, "clean_ans")},
                     s.preds, s.n, {"read": (s.src, src), "written": (s.dst, dst)},
                     lambda row, at: [logits[0] for logits in interchange_logits(
                         runner, [row], at, src, dst, bs=1)])

    return read_back(runner, rows, sorted(sweeps), lambda lay: [
        swept(name, sweeps[name], *positions)
        for name, positions in binding_positions(lay).items()])


def answer(runner: LookbackRunner, rows: list[Counterfactual], sweep: AnswerSweep) -> Readback:
    """§6's answer sweep read back, at the final position."""
    expected, why = sweep_layers_expected(runner)

    def swept(lay: Layout) -> list[Swept]:
        final = [lay.length - 1]
        return [Swept("answer", sweep.layers, expected, why,
                      {"clean": (sweep.clean, "clean_ans"), "pointer": (sweep.pointer, "target"),
                       "payload": (sweep.payload, "payload")}, sweep.preds, sweep.n,
                      {"read": (sweep.src, final), "written": (sweep.dst, final)},
                      lambda row, at: [logits[0] for logits in interchange_logits(
                          runner, [row], at, final, final, bs=1)])]

    return read_back(runner, rows, ["answer"], swept)


def source(runner: LookbackRunner, rows: list[Counterfactual],
           sweeps: dict[str, SourceSweep]) -> Readback:
    """§5's source sweeps (with and without the freeze) read back: the last layers L its sizes
    declare (each a block of the model's config), the layout's positions."""
    n_layers = runner.model.hf.config.num_hidden_layers

    def swept(lay: Layout, name: str, s: SourceSweep) -> Swept:
        (src, dst), (drinks, _) = entity_positions(lay), drink_states(lay)
        sizes = SOURCE_SIZES[s.freeze]
        expected = list(getattr(runner.sizes, sizes))

        def alone(row: Counterfactual, at: list[int]) -> list[torch.Tensor | None]:
            logits = source_logits(runner, [row], at, s.freeze)
            return [logits[L][0] if L in logits else None for L in at]

        return Swept(name, s.last_layers, expected, f"the sizes' {sizes}",
                     {"iia": (s.iia, "target"), "clean_survives": (s.clean_survives, "clean_ans")},
                     s.preds, s.n, {"read": (s.src, src), "written": (s.dst, dst),
                                    "frozen": (s.frozen, drinks if s.freeze else [])},
                     alone, "L = {}", tuple(f"{name}: L = {L} is not a block of the model's "
                                            f"config ({n_layers})"
                                            for L in expected if not 0 <= L < n_layers))

    return read_back(runner, rows, sorted(sweeps),
                     lambda lay: [swept(lay, name, s) for name, s in sweeps.items()])
