"""Seed 004's prompt ids go to the device of the model's input embedding, not the default device."""
from __future__ import annotations

from types import SimpleNamespace

import torch

from harness.sources.patching.experiments import ids_tensor


def test_prompt_ids_take_the_models_device():
    model = SimpleNamespace(device=torch.device("meta"))
    ids = ids_tensor(model, [50256, 7554])
    assert ids.device == model.device and ids.shape == (1, 2) and ids.dtype == torch.long
