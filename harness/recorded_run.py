"""Recording one run of an experiment (harness.fire_once, harness.replay): each forward's inputs,
with a pre-hook on the model's root, every block's output, the head's output at the final
position and, given the modules inside the blocks, what entered each block and what its
attention output projection consumed."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import torch
from torch import nn

from harness.consumed_inputs import ConsumedInputs, Inside, inside
from harness.replay import Forward, Reference, Site, block_output, hooks, replay


def _is_cache(value: Any) -> bool:
    """A key-value cache argument (transformers' Cache classes), whatever its keyword."""
    return hasattr(value, "get_seq_length")


def _cache_len(cache: Any) -> int:
    return int(cache.get_seq_length())


@dataclass
class Recorded:
    """One run of the experiment as the hooks saw it: each forward's inputs, the outputs of its
    blocks in the order they ran (block index, hidden states), its head at the final position
    and, where watched, what entered each block and what its attention output projection
    consumed (block index, tensor)."""

    forwards: list[Forward]
    blocks: list[list[tuple[int, torch.Tensor]]]
    heads: list[torch.Tensor | None]  # None where a forward never reached the head
    inputs: list[list[tuple[int, torch.Tensor]]] = field(default_factory=list)
    projections: list[list[tuple[int, torch.Tensor]]] = field(default_factory=list)


def record_run(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
               run: Callable[[], Any], inside: Inside | None = None) -> Recorded:
    """Run the experiment once under hooks: every forward's inputs through `root` (a pre-hook),
    every block's output and the head's output at the final position, in order; and, given the
    modules `inside` the blocks, what entered each block (a pre-hook on its input norm) and what
    each projection consumed (nnsight edits a module's input after its own pre-hooks run)."""
    seen = Recorded([], [], [], [], [])

    def pre(module: nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
        if args:
            kwargs = {"input_ids": args[0], **kwargs}
        name = next((k for k, v in kwargs.items() if _is_cache(v)), None)
        kept = {k: v.detach().clone() if torch.is_tensor(v) else v for k, v in kwargs.items()
                if v is not None and k != name}
        if name is None:
            seen.forwards.append(Forward(kept))
        elif _cache_len(kwargs[name]) == 0:
            seen.forwards.append(Forward(kept, name, cache=copy.deepcopy(kwargs[name])))
        else:
            seen.forwards.append(Forward(kept, name, continues=True))
        seen.blocks.append([])
        seen.heads.append(None)
        seen.inputs.append([])
        seen.projections.append([])

    def block_hook(index: int) -> Callable:
        return lambda m, a, o: seen.blocks[-1].append((index, block_output(o).detach().clone()))

    handles = [root.register_forward_pre_hook(pre, with_kwargs=True)]
    handles += [b.register_forward_hook(block_hook(i)) for i, b in enumerate(blocks)]

    def head_hook(module: nn.Module, args: tuple, output: Any) -> None:
        seen.heads[-1] = block_output(output)[:, -1].detach().float().cpu()

    handles.append(head.register_forward_hook(head_hook))
    if inside is not None:
        handles += [n.register_forward_pre_hook(
            lambda m, a, i=i: seen.inputs[-1].append((i, a[0].detach().clone())))
            for i, n in enumerate(inside.norms)]
    watched = ConsumedInputs(
        {i: p for i, p in enumerate(inside.projections if inside else []) if p is not None},
        lambda i, x: seen.projections[-1].append((i, x)))
    with hooks(handles), torch.no_grad(), watched:
        run()
    return seen


def decoder_blocks(hf: nn.Module) -> nn.ModuleList:
    """A transformers causal LM's decoder blocks: the one module list under its base model as
    long as its config's layer count (GPT-2's transformer.h, Llama's and Qwen's model.layers)."""
    n = hf.config.num_hidden_layers
    found = [m for m in hf.base_model.children() if isinstance(m, nn.ModuleList) and len(m) == n]
    if len(found) != 1:
        raise ValueError(f"{type(hf).__name__} holds {len(found)} module lists of its {n} blocks "
                         f"under its base model, not one")
    return found[0]


@dataclass(frozen=True)
class Watched:
    """A causal LM as the checks of a declared intervention read it (harness.fire_once,
    harness.identity_check, harness.rows_alone): its root, decoder blocks, head and, where they
    read inside the blocks, each block's input norm and attention output projection."""

    root: nn.Module
    blocks: nn.ModuleList
    head: nn.Module
    inside: Inside | None

    @classmethod
    def of(cls, hf: nn.Module, within: bool = False) -> Watched:
        blocks = decoder_blocks(hf)
        return cls(hf, blocks, hf.get_output_embeddings(), inside(blocks) if within else None)

    def record(self, run: Callable[[], Any]) -> Recorded:
        """One run of the experiment under the recording hooks."""
        return record_run(self.root, self.blocks, self.head, run, self.inside)

    def replay(self, forwards: Sequence[Forward], sites: Sequence[Site] = ()) -> list[Reference]:
        """The forwards replayed through the plain model, `sites` written by plain hooks."""
        return replay(self.root, self.blocks, self.head, forwards, sites, self.inside)
