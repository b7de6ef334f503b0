"""Replayed forwards built by hand, for the tests of what reads them (harness.prompt_rows,
harness.declared_sites)."""
from __future__ import annotations

import torch

from harness.replay import Forward, Reference


def ref(ids: list[list[int]], mask: list[list[int]] | None = None, layers: int = 2,
        d: int = 3, cache: object = None, offset: float = 0.0) -> Reference:
    """A replayed forward that read `ids`, each block's output numbering its rows and positions
    (from `offset`)."""
    x = torch.tensor(ids)
    kwargs = {"input_ids": x} | ({"attention_mask": torch.tensor(mask)} if mask else {})
    out = torch.arange(x.numel() * d, dtype=torch.float32).reshape(*x.shape, d) + offset
    return Reference(Forward(kwargs, cache=cache), [out + 1000 * b for b in range(layers)],
                     out[:, -1])
