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

from dataclasses import dataclass, field
from typing import Callable, Sequence

import torch

from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.fire_once import binding_positions, drink_states, entity_positions
from harness.sources.lookback.interchange import (SourceSweep, Sweep, interchange_logits,
                                                  source_logits)
from harness.sources.lookback.positions import row_layout
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import Counterfactual

# What each recorded curve counts: the answers equal to this attribute of each row.
BINDING_CURVES = {"iia": "target", "clean_survives": "clean_ans"}        # §4
SOURCE_CURVES = {"iia": "target", "clean_survives": "clean_ans"}         # §5
ANSWER_CURVES = {"clean": "clean_ans", "pointer": "target", "payload": "payload"}  # §6
SOURCE_SIZES = {True: "source_freeze_layers", False: "source_plain_layers"}  # §5, by freeze
TOP = 8  # the solo run's top tokens searched for a recorded answer within a near tie

TIE_REASON = ("a row re-run alone meets other kernels than in its batch: float32 moves a logit "
              "by about 1e-6 (1e-5 of the top logit is allowed), bf16 by a unit or two of its "
              "8 significant bits (2^-5 of the top logit is allowed); a recorded answer that is "
              "not the solo run's top token reads back if its logit is that close to the top")


def tie_margin(top: float, dtype: torch.dtype) -> float:
    """How far below the solo run's top logit a recorded answer's logit may be (TIE_REASON)."""
    return (1e-5 if dtype == torch.float32 else 2 ** -5) * max(1.0, abs(top))


@dataclass
class Readback:
    """One study's sweeps read back: the sweeps, the coverage gaps, the cells re-run alone, how
    many read back only within a near tie, and the mismatches (cells and curves)."""

    sweeps: list[str]
    gaps: list[str]
    cells: list[str] = field(default_factory=list)
    ties: int = 0
    mismatched: list[str] = field(default_factory=list)


def sweep_layers_expected(runner: LookbackRunner) -> tuple[list[int], str]:
    """The layers a §4 or §6 sweep must patch, and why: the sizes' sweep_layers where declared,
    else every block of the model's config."""
    declared = runner.sizes.sweep_layers
    if declared is None:
        n = runner.model.hf.config.num_hidden_layers
        return list(range(n)), f"every block of the model's config ({n})"
    return list(declared), "the sizes' sweep_layers"


def spread(xs: Sequence[int]) -> list[int]:
    """The first, middle and last of `xs`, in order, without repeats."""
    xs = list(xs)
    return sorted({xs[0], xs[len(xs) // 2], xs[-1]}) if xs else []


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


def binding_gaps(runner: LookbackRunner, rows: list[Counterfactual],
                 sweeps: dict[str, Sweep]) -> list[str]:
    """§4: each binding sweep against the layers it must patch and the layout's positions."""
    if not rows:
        return ["no rows to read back"]
    expected, why = sweep_layers_expected(runner)
    lay = row_layout(runner, rows[0])
    gaps = []
    for name, (src, dst) in binding_positions(lay).items():
        sweep = sweeps.get(name)
        if sweep is None:
            gaps.append(f"{name}: not run")
            continue
        gaps += _layer_gaps(name, sweep.layers, expected, why,
                            {"iia": sweep.iia, "clean_survives": sweep.clean_survives},
                            sweep.preds, sweep.n, len(rows))
        gaps += _position_gaps(name, {"read": sweep.src, "written": sweep.dst},
                               {"read": src, "written": dst}, lay.length)
    return gaps


def answer_gaps(runner: LookbackRunner, rows: list[Counterfactual],
                sweep: AnswerSweep) -> list[str]:
    """§6: the answer sweep against the layers it must patch and the final position."""
    if not rows:
        return ["no rows to read back"]
    expected, why = sweep_layers_expected(runner)
    length = row_layout(runner, rows[0]).length
    gaps = _layer_gaps("answer", sweep.layers, expected, why,
                       {"clean": sweep.clean, "pointer": sweep.pointer, "payload": sweep.payload},
                       sweep.preds, sweep.n, len(rows))
    return gaps + _position_gaps("answer", {"read": sweep.src, "written": sweep.dst},
                                 {"read": [length - 1], "written": [length - 1]}, length)


def source_gaps(runner: LookbackRunner, rows: list[Counterfactual],
                sweeps: dict[str, SourceSweep]) -> list[str]:
    """§5: each source sweep against the last layers its sizes declare (each a block of the
    model's config) and the layout's positions."""
    if not rows:
        return ["no rows to read back"]
    n_layers = runner.model.hf.config.num_hidden_layers
    lay = row_layout(runner, rows[0])
    src, dst = entity_positions(lay)
    drinks, _ = drink_states(lay)
    gaps = []
    for name, sweep in sweeps.items():
        sizes = SOURCE_SIZES[sweep.freeze]
        expected = list(getattr(runner.sizes, sizes))
        gaps += [f"{name}: L = {L} is not a block of the model's config ({n_layers})"
                 for L in expected if not 0 <= L < n_layers]
        gaps += _layer_gaps(name, sweep.last_layers, expected, f"the sizes' {sizes}",
                            {"iia": sweep.iia, "clean_survives": sweep.clean_survives},
                            sweep.preds, sweep.n, len(rows))
        gaps += _position_gaps(name, {"read": sweep.src, "written": sweep.dst,
                                      "frozen": sweep.frozen},
                               {"read": src, "written": dst,
                                "frozen": drinks if sweep.freeze else []}, lay.length)
    return gaps


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
          preds: list[list[str]], layer: int, row: int,
          solo: Callable[[], torch.Tensor | None]) -> None:
    """One cell: the answer the sweep recorded for `row` at `layer` against the top tokens of
    the same row run alone (`solo`, its final logits)."""
    found.cells.append(what)
    try:
        recorded = preds[layers.index(layer)][row]
    except (ValueError, IndexError):
        found.mismatched.append(f"{what}: not in the sweep")
        return
    answered(runner, found, what, "the sweep", recorded, solo())


def answered(runner: LookbackRunner, found: Readback, what: str, by: str, recorded: str,
             logits: torch.Tensor | None) -> None:
    """The answer `by` (a batched run) recorded against the top tokens of the same row run alone
    (`logits`, its final logits), within a near tie (TIE_REASON)."""
    if logits is None:
        found.mismatched.append(f"{what}: the row alone gave no answer")
        return
    top = logits.float().topk(min(TOP, logits.shape[-1]))
    answers, values = runner.decode(top.indices), top.values.tolist()
    if answers[0] == recorded:
        return
    margin = tie_margin(values[0], runner.model.hf.dtype)
    if any(a == recorded and values[0] - v <= margin for a, v in zip(answers, values)):
        found.ties += 1
        return
    found.mismatched.append(f"{what}: {by} recorded {recorded!r}, the row alone answers "
                            f"{answers[0]!r}")


def binding_rows(runner: LookbackRunner, rows: list[Counterfactual], sweeps: dict[str, Sweep],
                 found: Readback) -> None:
    """§4: each binding sweep's curves re-counted, and its first, middle and last rows at its
    first, middle and last layers re-run one row at a time through the interchange."""
    if not rows:
        return
    positions = binding_positions(row_layout(runner, rows[0]))
    layers = spread(sweep_layers_expected(runner)[0])
    for name, sweep in sweeps.items():
        src, dst = positions[name]
        _rescored(found, name, {"iia": sweep.iia, "clean_survives": sweep.clean_survives},
                  BINDING_CURVES, sweep.layers, sweep.preds, rows)
        for r in spread(range(len(rows))):
            alone = interchange_logits(runner, [rows[r]], layers, src, dst, bs=1)
            for layer, logits in zip(layers, alone):
                _cell(runner, found, f"{name}: layer {layer} row {r}", sweep.layers, sweep.preds,
                      layer, r, lambda logits=logits: logits[0])


def answer_rows(runner: LookbackRunner, rows: list[Counterfactual], sweep: AnswerSweep,
                found: Readback) -> None:
    """§6: the answer sweep's curves re-counted, and its first, middle and last rows at its
    first, middle and last layers re-run one row at a time, the final position patched."""
    if not rows:
        return
    final = [row_layout(runner, rows[0]).length - 1]
    _rescored(found, "answer", {"clean": sweep.clean, "pointer": sweep.pointer,
                                "payload": sweep.payload},
              ANSWER_CURVES, sweep.layers, sweep.preds, rows)
    layers = spread(sweep_layers_expected(runner)[0])
    for r in spread(range(len(rows))):
        alone = interchange_logits(runner, [rows[r]], layers, final, final, bs=1)
        for layer, logits in zip(layers, alone):
            _cell(runner, found, f"answer: layer {layer} row {r}", sweep.layers, sweep.preds,
                  layer, r, lambda logits=logits: logits[0])


def source_rows(runner: LookbackRunner, rows: list[Counterfactual],
                sweeps: dict[str, SourceSweep], found: Readback) -> None:
    """§5: each source sweep's curves re-counted, and its first, middle and last rows at its
    first, middle and last L re-run one row at a time."""
    if not rows:
        return
    for name, sweep in sweeps.items():
        _rescored(found, name, {"iia": sweep.iia, "clean_survives": sweep.clean_survives},
                  SOURCE_CURVES, sweep.last_layers, sweep.preds, rows)
        last = spread(getattr(runner.sizes, SOURCE_SIZES[sweep.freeze]))
        for r in spread(range(len(rows))):
            alone = source_logits(runner, [rows[r]], last, sweep.freeze)
            for L in last:
                _cell(runner, found, f"{name}: L = {L} row {r}", sweep.last_layers, sweep.preds,
                      L, r, lambda L=L, alone=alone: alone[L][0] if L in alone else None)


def binding(runner: LookbackRunner, rows: list[Counterfactual],
            sweeps: dict[str, Sweep]) -> Readback:
    """§4's three binding sweeps read back."""
    found = Readback(sorted(sweeps), binding_gaps(runner, rows, sweeps))
    binding_rows(runner, rows, sweeps, found)
    return found


def answer(runner: LookbackRunner, rows: list[Counterfactual], sweep: AnswerSweep) -> Readback:
    """§6's answer sweep read back."""
    found = Readback(["answer"], answer_gaps(runner, rows, sweep))
    answer_rows(runner, rows, sweep, found)
    return found


def source(runner: LookbackRunner, rows: list[Counterfactual],
           sweeps: dict[str, SourceSweep]) -> Readback:
    """§5's source sweeps (with and without the freeze) read back."""
    found = Readback(sorted(sweeps), source_gaps(runner, rows, sweeps))
    source_rows(runner, rows, sweeps, found)
    return found
