"""What a block consumed (issue 46 §2; seed 001 §1's edits, which replace the residual entering a
block or one head's slice of o_proj's input): each block's input norm and attention output
projection, what each consumed in an experiment's run, and the plain pre-hooks that write an
input or head site there in the replay."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

# Where a decoder block keeps the linear layer that mixes its heads' outputs (Llama, Qwen, Mistral).
PROJECTION = "self_attn.o_proj"
# The first module a pre-norm block feeds its input to (Llama, Qwen, Mistral; GPT-2).
INPUT_NORMS = ("input_layernorm", "ln_1")


@dataclass(frozen=True)
class Inside:
    """The modules inside each block whose inputs a check reads: its input norm (what entered
    the block) and its attention output projection (None where it has no linear one)."""

    norms: list[nn.Module]
    projections: list[nn.Linear | None]


def inside(blocks: Sequence[nn.Module]) -> Inside:
    """Each block's input norm and attention output projection."""
    norms, projections = [], []
    for i, block in enumerate(blocks):
        norm = next((getattr(block, n) for n in INPUT_NORMS if hasattr(block, n)), None)
        if norm is None:
            raise ValueError(f"block {i} ({type(block).__name__}) has none of {INPUT_NORMS}: "
                             f"what enters it cannot be read")
        projection = block.get_submodule(PROJECTION) if hasattr(block, "self_attn") else None
        norms.append(norm)
        projections.append(projection if isinstance(projection, nn.Linear) else None)
    return Inside(norms, projections)


class ConsumedInputs(TorchFunctionMode):
    """Calls `seen(block, input)` with the input each watched projection (by block) actually
    multiplies: nnsight 0.8 edits a module's input inside its wrapped forward, after PyTorch's
    pre-hooks have run, so only the functional call sees the tensor consumed."""

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


def written(x: torch.Tensor, sites: Sequence[Any]) -> torch.Tensor:
    """A copy of `x` with each site's value at its rows × positions (and columns, for a head
    site): what a plain hook hands the module on."""
    x = x.clone()
    for s in sites:
        rows = torch.tensor(s.rows, device=x.device)[:, None]
        cols = torch.tensor(s.positions, device=x.device)[None, :]
        features = slice(None) if s.columns is None else slice(*s.columns)
        x[rows, cols, features] = s.value.to(device=x.device, dtype=x.dtype)
    return x


def write_heads(sites: Callable[[], Sequence[Any]],
                seen: Callable[[torch.Tensor], None]) -> Callable:
    """A plain pre-hook for one projection: it writes each head site `sites()` names for the
    forward under way into a copy of the input, and passes `seen` the input consumed."""
    def hook(module: nn.Module, args: tuple) -> tuple | None:
        mine = [s for s in sites() if s.place == "heads"]
        x = written(args[0], mine) if mine else args[0]
        seen(x.detach().clone())
        return (x, *args[1:]) if mine else None
    return hook


def write_inputs(sites: Callable[[], Sequence[Any]]) -> Callable:
    """A plain pre-hook for one block: it writes each input site `sites()` names for the
    forward under way into a copy of the hidden states entering it."""
    def hook(module: nn.Module, args: tuple, kwargs: dict) -> tuple | None:
        mine = [s for s in sites() if s.place == "input"]
        if not mine:
            return None
        if args:
            return (written(args[0], mine), *args[1:]), kwargs
        return args, {**kwargs, "hidden_states": written(kwargs["hidden_states"], mine)}
    return hook
