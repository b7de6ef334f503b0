"""nnsight's pipeline keeps a model where the profile put it."""
from __future__ import annotations

import torch
import transformers.pipelines.base as pipeline_base

from harness.models import load, pipeline_placement
from harness.profiles import get_profile


def test_a_cpu_model_stays_on_the_cpu_where_cuda_exists(monkeypatch):
    # transformers' pipeline moves a model without a device map to cuda:0 when CUDA exists.
    monkeypatch.setattr(pipeline_base, "is_torch_cuda_available", lambda: True)
    loaded = load(get_profile("tiny").models["patching"])
    assert loaded.nn.pipeline.device == torch.device("cpu") == loaded.device


def test_a_model_placed_by_accelerate_gets_no_pipeline_device():
    module = torch.nn.Linear(2, 2)
    module.hf_device_map = {"": 0}
    assert pipeline_placement(module) == {}
