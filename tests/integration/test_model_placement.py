"""Models stay where the profile puts them: on the CPU under nnsight, on one GPU when they fit."""
from __future__ import annotations

import pytest
import torch
import transformers.pipelines.base as pipeline_base

from harness.models.loaded import load, pipeline_placement
from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from tests.paths import SHARED_CACHE

TWO_GPUS = {0: "80GiB", 1: "80GiB", "cpu": "100GiB"}


def test_a_cpu_model_stays_on_the_cpu_where_cuda_exists(monkeypatch):
    # transformers' pipeline moves a model without a device map to cuda:0 when CUDA exists.
    monkeypatch.setattr(pipeline_base, "is_torch_cuda_available", lambda: True)
    loaded = load(get_profile("tiny").models["patching"])
    assert loaded.nn.pipeline.device == torch.device("cpu") == loaded.device


def test_a_model_placed_by_accelerate_gets_no_pipeline_device():
    module = torch.nn.Linear(2, 2)
    module.hf_device_map = {"": 0}
    assert pipeline_placement(module) == {}


@pytest.mark.parametrize("source", sorted(s for s, m in get_profile("published").models.items()
                                          if m.device_map))
def test_a_published_model_that_fits_on_one_gpu_is_placed_on_one(source):
    """transformers' own device-map inference, for the spec's strategy, on two 80 GiB GPUs."""
    from accelerate import init_empty_weights
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.integrations.accelerate import _get_device_map

    spec = get_profile("published").models[source]
    snapshot = snapshot_dir(SHARED_CACHE, spec)
    if not (snapshot / "config.json").is_file():
        pytest.skip(f"the published config is not in the shared cache: {snapshot}")
    with init_empty_weights():
        model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(snapshot),
                                                 dtype=torch.bfloat16)
    placement = _get_device_map(model, spec.device_map, TWO_GPUS, None)
    assert set(placement.values()) == {0}


def test_a_cuda_model_spilled_onto_the_cpu_is_flagged_as_offloaded():
    from harness.models.loaded import placement

    module = torch.nn.Linear(2, 2)
    module.hf_device_map = {"model.layers.0": 0, "model.layers.31": "cpu"}
    spec = get_profile("published").models["lookback"]
    assert placement(spec, module) == {"placement": ["0", "cpu"], "offloaded": True}
    module.hf_device_map = {"": 0}
    assert placement(spec, module)["offloaded"] is False
