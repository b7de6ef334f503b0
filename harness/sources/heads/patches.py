"""Seed 001's final-token edits (§1) and the exactness checks its receipts make of them."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Patch:
    """A final-token edit: the residual entering a block ('r') or one head's o_proj input ('z')."""

    layer: int
    kind: str
    value: torch.Tensor
    head: int | None = None

    @property
    def site(self) -> tuple[int, str, int | None]:
        return self.layer, self.kind, self.head


def residual_patch(block: int, value: torch.Tensor) -> Patch:
    """§1: replace the final token's block-input residual, shaped [1, d_model]."""
    return Patch(block, "r", value)


def head_output_patch(block: int, head: int, value: torch.Tensor) -> Patch:
    """§1: replace one head's final-token output before o_proj (hook_z), shaped [1, d_head]."""
    return Patch(block, "z", value, head)


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """torch.equal on `a`'s device. With a model spread over devices, nnsight reads a block's
    input before accelerate's hook moves it to the block's device, so the two sides of an
    exactness check may sit on different devices; moving a tensor does not change its values."""
    return torch.equal(a, b.to(a.device))


def tensor_sha(tensor: torch.Tensor) -> str:
    """§1: sha256 over a shape/dtype header and the tensor's raw bytes."""
    array = tensor.detach().contiguous().cpu()
    header = json.dumps({"shape": list(array.shape), "dtype": str(array.dtype)},
                        sort_keys=True).encode()
    return hashlib.sha256(header + array.view(torch.uint8).numpy().tobytes()).hexdigest()
