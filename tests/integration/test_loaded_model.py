"""What `harness.models.loaded.load` hands the experiments: a model whose forwards record no
autograd graph."""
from __future__ import annotations

import torch

from harness.models.loaded import load
from harness.registry import get_profile


def test_a_loaded_models_forward_records_no_autograd_graph():
    loaded = load(get_profile("tiny").models["patching"])
    with loaded.nn.trace(torch.tensor([[1, 2, 3]])):
        logits = loaded.nn.output.logits.save()
    assert logits.grad_fn is None and not logits.requires_grad
