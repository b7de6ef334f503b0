"""Seed 004's studies against its plain reference (issue 49; harness/sources/patching/reference.py):
each study's recorded values, row by row, beside the reference's for the same pair and cells."""
from __future__ import annotations

from typing import Any

from harness.reference import EXACTLY, Agreement, Comparison, compare, sampled
from harness.snapshots import Tolerance
from harness.sources.patching import reference
from harness.sources.patching.experiments import (Behaviour, LayerFlip, PairIds, PairRuns, Sweep,
                                                  layer_flip)

# Fast mode's sweep runs one batched forward per block; the reference runs each cell alone. Both
# modes are held to the same bound, so that they record the same (fast mode equals faithful).
DRIFT = 1e-4  # a float32 batched row against a one-row forward moves a logit difference ~1e-6
ROUNDING = 1e-4  # each side rounds to 4 places: at most 5e-5 apart from each
SWEEP_WHY = ("each raw logit difference within "
             f"{ROUNDING + DRIFT:.0e} (4-place rounding on both sides, {ROUNDING:.0e}, plus fast "
             f"mode's batched row against a one-row forward, float32 drift bounded by {DRIFT:.0e}) "
             f"and each normalised value within {ROUNDING:.0e} + {DRIFT:.0e} / |clean − corrupted| "
             "(the same drift divided by the span it is normalised by); faithful mode, whose "
             "forwards are the reference's, is held to the same bound so that both modes record "
             "the same")
# A sweep anchor's recorded max |Δ| is a difference of values rounded to 4 places, so fast mode's
# drift moves it by whole units: a cell carried across a rounding boundary records one unit
# (1e-4, give or take its float64 representation) where faithful mode records 0.
RECORDED_DIFF = {"organism_tolerance": Tolerance(abs=ROUNDING + DRIFT),
                 "organism_tolerance_reason": (
                     "max |Δ| is a difference of values rounded to 4 places: fast mode's drift "
                     f"can carry a cell across a rounding boundary, one unit ({ROUNDING:.0e}), "
                     f"within the raw agreement bound ({ROUNDING + DRIFT:.0e})")}


def behaviour_rows(found: Behaviour) -> dict[str, dict[str, Any]]:
    """A Behaviour as the reference's rows: each run's top token and logit difference."""
    return {"clean": {"top1": found.clean_top1, "logit_diff": found.clean_logit_diff},
            "corrupted": {"top1": found.corrupted_top1, "logit_diff": found.corrupted_logit_diff}}


def behaviours(model: Any, seed_behaviour: Behaviour,
               ioi_behaviour: Behaviour) -> dict[str, Comparison]:
    """Code cell: both pairs' behaviour against the reference's, exactly."""
    return {key: compare(f"{key}_behaviour", behaviour_rows(found),
                         reference.behaviour(reference.run_pair(model, key)))
            for key, found in (("seed", seed_behaviour), ("ioi", ioi_behaviour))}


def flip_rows(found: list[LayerFlip]) -> dict[str, dict[str, Any]]:
    """LayerFlips as the reference's rows, each labelled by its block."""
    return {f"block {f.layer}": {k: v for k, v in vars(f).items() if k != "layer"} for f in found}


def layer_flips(model: Any, patch_layer: int, seed_layer_flip: LayerFlip, ioi_pair: PairIds,
                ioi_runs: PairRuns) -> dict[str, Comparison]:
    """Code cell: the seed's layer patch on its pair, and the same study on the IOI pair at the
    sampled blocks (where the organism's top token and flip differ from block to block),
    against the reference's, exactly."""
    blocks = {"seed": [patch_layer], "ioi": sampled(model.hf.config.n_layer)}
    studied = {"seed": [seed_layer_flip],
               "ioi": [layer_flip(model, ioi_pair, ioi_runs, layer) for layer in blocks["ioi"]]}
    found = {}
    for key, flips in studied.items():
        pair = reference.run_pair(model, key)
        found[key] = compare(f"{key}_layer_flip", flip_rows(flips),
                             {f"block {layer}": reference.layer_flip(pair, layer)
                              for layer in blocks[key]})
    return found


def sweep_rows(found: Sweep) -> dict[str, Any]:
    """A Sweep as the reference's rows: the runs' ends, the tokens, and every cell by label."""
    rows: dict[str, Any] = {"ends": {"clean": found.clean_logit_diff,
                                     "corrupted": found.corrupted_logit_diff},
                            "tokens": found.tokens}
    for i, layer in enumerate(found.layers):
        for j, p in enumerate(found.positions):
            rows[reference.cell(layer, p)] = {"raw": found.raw[i][j],
                                              "normalised": found.normalised[i][j]}
    return rows


def agreements(ends: dict[str, float]) -> tuple[Agreement, Agreement]:
    """The raw and the normalised values' agreement (SWEEP_WHY); exact where nothing is
    normalised (the runs' ends equal)."""
    span = abs(ends["clean"] - ends["corrupted"])
    normalised = Agreement(ROUNDING + DRIFT / span, why=SWEEP_WHY) if span else EXACTLY
    return Agreement(ROUNDING + DRIFT, why=SWEEP_WHY), normalised


def split(rows: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A sweep's rows in three: the ends and tokens, each cell's raw and its normalised value."""
    plain = {k: v for k, v in rows.items() if not k.startswith("block ")}
    cells = {k: v for k, v in rows.items() if k not in plain}
    return (plain, {k: v["raw"] for k, v in cells.items()},
            {k: v["normalised"] for k, v in cells.items()})


def sweep_against(name: str, found: Sweep, wanted: dict[str, Any]) -> dict[str, Comparison]:
    """A sweep's ends, tokens and raw cells, and apart its normalised cells, on the reference's
    cells (a cell the sweep lacks is a mismatch)."""
    rows = sweep_rows(found)
    plain, raw, normalised = split({k: rows[k] for k in wanted if k in rows})
    want_plain, want_raw, want_normalised = split(wanted)
    raw_agreement, normalised_agreement = agreements(wanted["ends"])
    return {name: compare(name, {**plain, **raw}, {**want_plain, **want_raw}, raw_agreement),
            f"{name} normalised": compare(f"{name} normalised", normalised, want_normalised,
                                          normalised_agreement)}


def sweeps(model: Any, seed_sweep: Sweep, ioi_sweep: Sweep) -> dict[str, Comparison]:
    """Code cell: both pairs' sweeps, in the mode under test, against the reference's cells."""
    found: dict[str, Comparison] = {}
    for key, swept in (("seed", seed_sweep), ("ioi", ioi_sweep)):
        wanted = reference.sweep(reference.run_pair(model, key))
        found.update(sweep_against(f"{key}_sweep", swept, wanted))
    return found
