"""Issue 36 for seed 003: the fire-once anchors pass on the organism's runs (finding the
counterfactual and clean runs by the prompts read: tests/unit/test_prompt_rows.py), the
low-rank anchor draws the register's random control itself, and the readbacks
(harness/sources/lookback/readback.py) pass on the organism's sweeps and fail on a record a
layer short, in another row order or scored against another answer."""
from __future__ import annotations

import dataclasses

import pytest
import torch

from harness.fire_once import failures
from harness.interventions import fires
from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.lookback import fire_once as fire
from harness.sources.lookback import readback
from harness.sources.lookback.answers import answer_sweep
from harness.sources.lookback.interchange import binding_sweep, source_sweep
from harness.sources.lookback.low_rank import RANDOM_BASIS_SEEDS, random_basis
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import build_answer, build_binding, build_source

ROWS = 8


def test_the_anchor_draws_the_experiments_random_control_bit_for_bit():
    assert fire.CONTROL_SEEDS == RANDOM_BASIS_SEEDS
    like = torch.zeros(1)
    for seed in fire.CONTROL_SEEDS:
        for k in (1, 4):
            assert torch.equal(fire.control_basis(128, k, seed),
                               random_basis(128, k, seed, like=like))


@pytest.fixture(scope="module")
def runner() -> LookbackRunner:
    tiny = get_profile("tiny")
    return LookbackRunner(load(tiny.models["lookback"]), tiny.sizes["lookback"])


@pytest.fixture(scope="module")
def rows(runner) -> dict[str, list]:
    kw = {"instruction": runner.instruction}
    return {"binding": build_binding(**kw)[:ROWS], "source": build_source(**kw)[:ROWS],
            "answer": build_answer(**kw)[:ROWS]}


@pytest.fixture(scope="module")
def sweeps(runner, rows) -> dict:
    return {name: binding_sweep(runner, rows["binding"], name) for name in fire.SWEEPS}


@pytest.mark.parametrize("read_once", [False, True], ids=["faithful", "fast"])
def test_the_fire_once_anchors_find_their_runs_on_the_organism(runner, rows, read_once):
    run = dataclasses.replace(runner, sizes=dataclasses.replace(runner.sizes, read_once=read_once))
    assert failures(fires(fire.binding_patches(run, rows["binding"]))) == []
    assert failures(fires(fire.source_patch(run, rows["source"], False))) == []
    assert failures(fires(fire.source_patch(run, rows["source"], True))) == []
    assert failures(fires(fire.answer_patch(run, rows["answer"]))) == []
    assert failures(fires(fire.low_rank_patch(run, rows["binding"]))) == []


def test_the_readbacks_pass_on_the_organisms_sweeps(runner, rows, sweeps):
    sizes = runner.sizes
    found = [readback.binding(runner, rows["binding"], sweeps),
             readback.answer(runner, rows["answer"], answer_sweep(runner, rows["answer"])),
             readback.source(runner, rows["source"], {
                 "freeze": source_sweep(runner, rows["source"], sizes.source_freeze_layers, True),
                 "no freeze": source_sweep(runner, rows["source"], sizes.source_plain_layers,
                                           False)})]
    for f in found:
        assert (f.gaps, f.mismatched, f.ties) == ([], [], 0), f
        assert f.cells


def test_a_sweep_a_layer_short_is_a_coverage_gap(runner, rows, sweeps):
    s = sweeps["reversed"]
    short = dataclasses.replace(s, layers=s.layers[:-1], iia=s.iia[:-1],
                                clean_survives=s.clean_survives[:-1], preds=s.preds[:-1])
    gaps = readback.binding(runner, rows["binding"], {**sweeps, "reversed": short}).gaps
    assert gaps and all(g.startswith("reversed") for g in gaps), gaps


def test_a_sweep_that_recorded_other_positions_is_a_coverage_gap(runner, rows, sweeps):
    s = sweeps["reversed"]
    moved = dataclasses.replace(s, dst=[p + 1 for p in s.dst])
    gaps = readback.binding(runner, rows["binding"], {**sweeps, "reversed": moved}).gaps
    assert gaps == [f"reversed: written positions {moved.dst}, expected {s.dst}"]


def test_answers_recorded_in_another_row_order_fail_the_rows_readback(runner, rows, sweeps):
    s = sweeps["reversed"]
    turned = dataclasses.replace(s, preds=[p[::-1] for p in s.preds])
    found = readback.binding(runner, rows["binding"], {**sweeps, "reversed": turned})
    assert any("the row alone answers" in m for m in found.mismatched), found


def test_a_curve_scored_against_another_answer_fails_the_rows_readback(runner, rows, sweeps):
    s = sweeps["reversed"]
    misread = dataclasses.replace(s, iia=s.clean_survives)
    found = readback.binding(runner, rows["binding"], {**sweeps, "reversed": misread})
    assert any("against target" in m for m in found.mismatched), found
