"""Seed 000 §6's bump and noise are made on the device of the layer output they are added to, not
on `runner.model.device` (a model split over GPUs has layers elsewhere), and in its dtype.

The CPU cannot split a model over devices; here the model's reported device is made to differ from
where its layers run (`meta`), which is what a split model looks like to code that asks
`runner.model.device`. A vector left on that device is not added at all (the run silently goes
on unbumped), so each test checks that its vector took effect."""
from __future__ import annotations

import dataclasses

import pytest
import torch

from harness.models.handle import Loaded
from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.cot.decode import bump_audit
from harness.sources.cot.noise import post_answer_specificity
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS
from harness.sources.cot.traces import baseline


@pytest.fixture(scope="module", params=["float32", "bfloat16"])
def runner(request) -> CotRunner:
    tiny = get_profile("tiny")
    spec = dataclasses.replace(tiny.models["cot"], dtype=request.param)
    return CotRunner(load(spec), tiny.sizes["cot"])


@pytest.fixture
def layers_elsewhere(monkeypatch, runner):
    """`runner.model.device` names a device no layer runs on; the prompt ids stay on the CPU."""
    monkeypatch.setattr(Loaded, "device", property(lambda self: torch.device("meta")))
    monkeypatch.setattr(CotRunner, "tensor", lambda self, ids: torch.tensor([list(ids)]))
    return runner


def test_the_fire_once_bump_lands_on_the_anchor_layers_output(layers_elsewhere):
    runner = layers_elsewhere
    t = baseline(runner, PROBLEMS[:1]).traces[0]
    f = bump_audit(runner, t.pid)
    assert f.nonzero_steps == [f.step], f.deltas


def test_the_specificity_noise_lands_on_the_anchor_layers_output(layers_elsewhere):
    runner = layers_elsewhere
    b = baseline(runner, PROBLEMS[:1])
    assert b.usable, "the organism solves problem 0"
    s = post_answer_specificity(runner, b.usable[0])
    assert s.early.diverges_at is not None, "the noise inside <think> changed nothing"
