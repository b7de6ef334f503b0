"""Head sites (issue 46 §2; seed 001 §1's head edits, which replace one head's slice of o_proj's
input): each block's attention output projection, what it consumed in an experiment's run, and
the plain pre-hook that writes a head site's value there in the replay."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

# Where a decoder block keeps the linear layer that mixes its heads' outputs (Llama, Qwen, Mistral).
PROJECTION = "self_attn.o_proj"


def attention_projections(blocks: Sequence[nn.Module]) -> list[nn.Module]:
    """Each block's attention output projection: a linear layer whose input is the heads'
    outputs side by side, so that a head is a slice of its input's features."""
    found = []
    for i, block in enumerate(blocks):
        module = block.get_submodule(PROJECTION) if hasattr(block, "self_attn") else None
        if not isinstance(module, nn.Linear):
            raise ValueError(f"block {i} ({type(block).__name__}) has no nn.Linear at "
                             f"{PROJECTION}: its heads cannot be written as head sites")
        found.append(module)
    return found


class ConsumedInputs(TorchFunctionMode):
    """Calls `seen(block, input)` with the input each watched projection (by block) actually
    multiplies:
    nnsight 0.8 edits a module's input inside its wrapped forward, after PyTorch's pre-hooks
    have run, so only the functional call sees the tensor consumed."""

    def __init__(self, projections: Mapping[int, nn.Module],
                 seen: Callable[[int, torch.Tensor], None]) -> None:
        super().__init__()
        self.blocks = {id(p.weight): block for block, p in projections.items()}
        self.seen = seen

    def __torch_function__(self, func: Any, types: Any, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        if func is torch.nn.functional.linear and self.blocks:
            weight = args[1] if len(args) > 1 else kwargs.get("weight")
            block = self.blocks.get(id(weight))
            if block is not None:
                self.seen(block, args[0].detach().clone())
        return func(*args, **kwargs)


def write_heads(sites: Callable[[], Sequence[Any]],
                seen: Callable[[torch.Tensor], None]) -> Callable:
    """A plain pre-hook for one projection: it writes each head site `sites()` names for the
    forward under way (a harness.replay.Site with `columns`) into a copy of the input, and passes
    `seen` the input the projection consumes."""
    def hook(module: nn.Module, args: tuple) -> tuple | None:
        x, mine = args[0], [s for s in sites() if s.columns is not None]
        if mine:
            x = x.clone()
            for s in mine:
                rows = torch.tensor(s.rows, device=x.device)[:, None]
                cols = torch.tensor(s.positions, device=x.device)[None, :]
                x[rows, cols, s.columns[0]:s.columns[1]] = s.value.to(device=x.device,
                                                                       dtype=x.dtype)
        seen(x.detach().clone())
        return (x, *args[1:]) if mine else None
    return hook
