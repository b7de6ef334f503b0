"""Seed 004's readback anchors: what is read back after a patch. The model prefers each pair's
clean answer more on the clean prompt (else "toward clean" is not a rise of the logit
difference); the sweep covers every block and position; and a few of its cells, re-run one patch
at a time, read what the sweep recorded (fast mode's batched rows included)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.models.handle import Loaded
from harness.snapshots import Tolerance
from harness.sources.patching.experiments import (Behaviour, PairIds, PairRuns, Sweep,
                                                  patched_logits)

# Each cell is rounded to 4 places (at most 5e-5 off) on both sides; a batched forward's
# float32 kernels move a logit difference by about 1e-6 against a forward of one row.
ROW_TOLERANCE = Tolerance(abs=2e-4)
ROW_TOLERANCE_REASON = ("both values rounded to 4 places (5e-5 each), plus float32 batched-row "
                        "kernels against one-row forwards (about 1e-6)")


def reversed_pairs(behaviours: dict[str, Behaviour]) -> dict[str, Any]:
    """The pairs whose clean run's logit difference does not exceed the corrupted run's."""
    return {"pairs": {name: {"clean_logit_diff": b.clean_logit_diff,
                             "corrupted_logit_diff": b.corrupted_logit_diff}
                      for name, b in behaviours.items()},
            "reversed": [name for name, b in behaviours.items()
                         if not b.clean_logit_diff > b.corrupted_logit_diff]}


def coverage_gaps(model: Loaded, pair: PairIds, sweep: Sweep) -> list[str]:
    """Where the sweep's cells differ from every block of the model's config × every position of
    the prompt, in order."""
    layers, positions = list(range(model.hf.config.n_layer)), list(range(len(pair.corrupted)))
    gaps = []
    if sweep.layers != layers or len(sweep.raw) != len(layers):
        gaps.append(f"blocks {sweep.layers} ({len(sweep.raw)} rows), expected {layers}")
    if sweep.positions != positions or any(len(row) != len(positions) for row in sweep.raw):
        gaps.append(f"positions {sweep.positions} (rows of {sorted({len(r) for r in sweep.raw})}),"
                    f" expected {positions}")
    return gaps


@dataclass
class SoloRows:
    """A few sweep cells re-run as one patch each: the cells, each one's gap, the mismatches."""

    cells: list[list[int]]
    diffs: list[float]
    mismatched: list[str]


def solo_rows(model: Loaded, pair: PairIds, runs: PairRuns, sweep: Sweep) -> SoloRows:
    """The first, middle and last blocks at the first, first differing and last positions, each
    patched alone and its logit difference computed here, against the sweep's cell."""
    last_layer, last_position = model.hf.config.n_layer - 1, len(pair.corrupted) - 1
    cells = [(layer, pos) for layer in sorted({0, last_layer // 2, last_layer})
             for pos in sorted({0, pair.differing[0], last_position})]
    diffs, mismatched = [], []
    for layer, pos in cells:
        logits = patched_logits(model, pair.corrupted, layer, [pos], runs.cache[layer])
        solo = round(float(logits[pair.clean_name] - logits[pair.corrupted_name]), 4)
        try:
            recorded = sweep.raw[sweep.layers.index(layer)][sweep.positions.index(pos)]
        except (ValueError, IndexError):
            mismatched.append(f"block {layer} position {pos}: not in the sweep")
            continue
        diffs.append(round(abs(recorded - solo), 6))
        if not ROW_TOLERANCE.allows(solo, recorded):
            mismatched.append(f"block {layer} position {pos}: sweep {recorded}, alone {solo}")
    return SoloRows([list(c) for c in cells], diffs, mismatched)


def by_pair(seed: Any, ioi: Any) -> dict[str, Any]:
    """Both pairs' results, by pair: the seed's and the corrected IOI pair's."""
    return {"seed": seed, "ioi": ioi}


def sweep_coverage(model: Loaded, seed_pair: PairIds, seed_sweep: Sweep, ioi_pair: PairIds,
                   ioi_sweep: Sweep) -> dict[str, list[str]]:
    """Each pair's sweep against every block and position (in the session's mode)."""
    return by_pair(coverage_gaps(model, seed_pair, seed_sweep),
                   coverage_gaps(model, ioi_pair, ioi_sweep))


def sweep_rows(model: Loaded, seed_pair: PairIds, seed_runs: PairRuns, seed_sweep: Sweep,
               ioi_pair: PairIds, ioi_runs: PairRuns, ioi_sweep: Sweep) -> dict[str, SoloRows]:
    """A few cells of each pair's sweep (in the session's mode) re-run as one patch each."""
    return by_pair(solo_rows(model, seed_pair, seed_runs, seed_sweep),
                   solo_rows(model, ioi_pair, ioi_runs, ioi_sweep))
