"""A loaded model as the experiments hold it: its nnsight wrapper, tokenizer and provenance. A value
of its own, apart from the loader (harness.models.loaded), so that a source's code holding one
(a runner, an organism's maker measuring itself) imports nothing that reaches back into the
sources."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

from harness.private import wrapped_module
from harness.profiles import ModelSpec


@dataclass
class Loaded:
    """An nnsight-wrapped model with its tokenizer and where it came from (the run record's
    `model` block)."""

    nn: Any
    tok: Any
    spec: ModelSpec
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def hf(self) -> torch.nn.Module:
        """The plain transformers module: the live one, which a model built by name swaps in
        when its weights load."""
        return wrapped_module(self.nn)

    def local(self) -> torch.nn.Module:
        """The transformers module running in this process, its weights here: a model built by
        name for nnsight's simulation loads them now rather than at its first trace."""
        if getattr(self.nn, "dispatched", True) is False:
            self.nn.dispatch()
        return self.hf

    @property
    def device(self) -> torch.device:
        """Where inputs are made: the weights' device, or the CPU while the weights are not
        here (on NDIF, or before a model built by name loads them; nnsight moves inputs)."""
        found = next(self.hf.parameters()).device
        return torch.device("cpu") if found.type == "meta" else found
