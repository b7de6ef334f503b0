"""Seed 003's machinery anchors that hold for any model, run on the lookback organism at 1 thread."""
from __future__ import annotations

import pytest
import torch

from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.lookback.identity import copy_all_identity, freeze_identity
from harness.sources.lookback.runner import LookbackRunner, final_logits
from harness.sources.lookback.task import build_binding, build_source


@pytest.fixture(scope="module")
def runner() -> LookbackRunner:
    return LookbackRunner(load(get_profile("tiny").models["lookback"]), get_profile("tiny").sizes["lookback"])


def test_the_freeze_alone_is_bit_identical(runner):
    rows = build_source(instruction=runner.instruction)
    result = freeze_identity(runner, rows)
    assert all(result.identical), result


def test_copying_every_position_reproduces_the_counterfactual_run(runner):
    rows = build_binding(instruction=runner.instruction)
    result = copy_all_identity(runner, rows)
    assert result.layers == list(range(runner.n_layers)) and all(result.identical), result


def test_the_copy_check_can_fail(runner):
    rows = build_binding(instruction=runner.instruction)[:8]
    clean = final_logits(runner, [r.clean for r in rows])
    assert not torch.equal(clean, final_logits(runner, [r.cf for r in rows]))
