"""Replaying an experiment's forwards through the plain transformers model (harness.fire_once):
record one run (each forward's inputs, with a pre-hook on the model's root, and every block's
output), then run the inputs again, unedited or with intended values written by plain forward
hooks, recording every block's output. A decode loop's forwards replay in order on a key-value
cache of the replay's own, fed the tokens the captured run read. Given the blocks' attention
output projections, both also record what each projection consumed, and the replay writes head
sites there (harness.projection_inputs)."""
from __future__ import annotations

import copy
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import nn

from harness.projection_inputs import ConsumedInputs, write_heads


@dataclass(frozen=True)
class Site:
    """What one write must leave: in the experiment's `forward`-th forward (from 0), block
    `layer`'s output at `rows` × `positions` holds `value` ([len(rows), len(positions), d]); a
    head site (`columns`, start and stop) names instead those features of what block `layer`'s
    attention output projection consumed, one head's slice of the heads' outputs."""

    forward: int
    layer: int
    rows: tuple[int, ...]
    positions: tuple[int, ...]
    value: torch.Tensor
    columns: tuple[int, int] | None = None

    def cells(self, length: int) -> list[tuple[int, int]]:
        return [(r, p % length) for r in self.rows for p in self.positions]


@dataclass
class Forward:
    """One forward's inputs as the model received them; `cache` is a copy of the empty cache
    that starts a decode loop, and `continues` marks a forward that reads the loop's cache."""

    kwargs: dict[str, Any]
    cache_keyword: str | None = None
    cache: Any = None
    continues: bool = False


@dataclass
class Reference:
    """One forward of the unedited replay: its block outputs, final-position head output and,
    where recorded, what each block's attention output projection consumed."""

    forward: Forward
    blocks: list[torch.Tensor]
    head: torch.Tensor
    projections: list[torch.Tensor] = field(default_factory=list)

    def value(self, layer: int, rows: Sequence[int], positions: Sequence[int],
              columns: tuple[int, int] | None = None) -> torch.Tensor:
        """The unedited values at block `layer`, `rows` × `positions`: what a copy would write;
        with `columns`, those features of what the block's attention output projection consumed."""
        if columns is None:
            return self.blocks[layer][list(rows)][:, list(positions)]
        return self.projections[layer][list(rows)][:, list(positions), columns[0]:columns[1]]


class RunMismatch(LookupError):
    """The run did not make the forwards an anchor's sites describe: a failure of the run."""


class SourceNotRead(RunMismatch):
    """No forward of the run read the prompt a written value must come from."""


def block_output(output: Any) -> torch.Tensor:
    """A block's hidden states, whether it returns them bare or first in a tuple."""
    return output[0] if isinstance(output, tuple) else output


@contextmanager
def hooks(handles: list[Any]) -> Iterator[None]:
    """Removes the hook handles on leaving, however the block ends."""
    try:
        yield
    finally:
        for h in handles:
            h.remove()


def _is_cache(value: Any) -> bool:
    """A key-value cache argument (transformers' Cache classes), whatever its keyword."""
    return hasattr(value, "get_seq_length")


def _cache_len(cache: Any) -> int:
    return int(cache.get_seq_length())


@dataclass
class Recorded:
    """One run of the experiment as the hooks saw it: each forward's inputs, the outputs of its
    blocks in the order they ran (block index, hidden states), its head at the final position
    and, where watched, what each attention output projection consumed (block index, input)."""

    forwards: list[Forward]
    blocks: list[list[tuple[int, torch.Tensor]]]
    heads: list[torch.Tensor | None]  # None where a forward never reached the head
    projections: list[list[tuple[int, torch.Tensor]]] = field(default_factory=list)


def record_run(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
               run: Callable[[], Any], projections: Sequence[nn.Module] = ()) -> Recorded:
    """Run the experiment once under hooks: every forward's inputs through `root` (a pre-hook),
    every block's output and the head's output at the final position, in order; and what each of
    the blocks' `projections` consumed (nnsight edits a module's input after its pre-hooks run)."""
    seen = Recorded([], [], [], [])

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
        seen.projections.append([])

    def block_hook(index: int) -> Callable:
        return lambda m, a, o: seen.blocks[-1].append((index, block_output(o).detach().clone()))

    handles = [root.register_forward_pre_hook(pre, with_kwargs=True)]
    handles += [b.register_forward_hook(block_hook(i)) for i, b in enumerate(blocks)]

    def head_hook(module: nn.Module, args: tuple, output: Any) -> None:
        seen.heads[-1] = block_output(output)[:, -1].detach().float().cpu()

    handles.append(head.register_forward_hook(head_hook))
    watched = ConsumedInputs(dict(enumerate(projections)),
                             lambda i, x: seen.projections[-1].append((i, x)))
    with hooks(handles), torch.no_grad(), watched:
        run()
    return seen


def _same_inputs(a: Forward, b: Forward) -> bool:
    """Whether two cache-free forwards got the same inputs (one replay serves both)."""
    if a.cache is not None or b.cache is not None or a.continues or b.continues:
        return False
    x, y = a.kwargs, b.kwargs
    return x.keys() == y.keys() and all(
        torch.equal(x[k], y[k]) if torch.is_tensor(x[k]) and torch.is_tensor(y[k]) else x[k] == y[k]
        for k in x)


def replay(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
           forwards: Sequence[Forward], sites: Sequence[Site] = (),
           projections: Sequence[nn.Module] = ()) -> list[Reference]:
    """The plain transformers model run on each captured forward's inputs, in order, every
    block's output (and what each of `projections` consumed) recorded; with `sites`, each written
    by a plain hook (the independent reference of the nnsight write). Without sites, identical
    cache-free forwards run once."""
    state = {"forward": -1}
    outs: list[list[torch.Tensor]] = []
    consumed: list[list[torch.Tensor]] = []
    heads: list[torch.Tensor] = []

    def block_hook(index: int) -> Callable:
        def hook(module: nn.Module, args: tuple, output: Any) -> Any:
            out = block_output(output)
            mine = [s for s in sites if s.forward == state["forward"] and s.layer == index
                    and s.columns is None]
            if mine:
                out = out.clone()
                for s in mine:
                    rows = torch.tensor(s.rows, device=out.device)[:, None]
                    cols = torch.tensor(s.positions, device=out.device)[None, :]
                    out[rows, cols] = s.value.to(device=out.device, dtype=out.dtype)
            outs[-1].append(out.detach().clone())
            if mine:
                return (out, *output[1:]) if isinstance(output, tuple) else out
            return None
        return hook

    handles = [b.register_forward_hook(block_hook(i)) for i, b in enumerate(blocks)]
    handles.append(head.register_forward_hook(
        lambda m, a, o: heads.append(block_output(o)[:, -1].detach().float().cpu())))
    handles += [p.register_forward_pre_hook(write_heads(
        lambda i=i: [s for s in sites if s.forward == state["forward"] and s.layer == i],
        lambda x: consumed[-1].append(x))) for i, p in enumerate(projections)]
    refs: list[Reference] = []
    cache = None
    with hooks(handles), torch.no_grad():
        for i, fw in enumerate(forwards):
            same = None if sites else next((r for r in refs if _same_inputs(r.forward, fw)), None)
            if same is not None:
                refs.append(Reference(fw, same.blocks, same.head, same.projections))
                continue
            kwargs = dict(fw.kwargs)
            if fw.cache is not None:
                cache = copy.deepcopy(fw.cache)
            if fw.cache_keyword is not None:
                kwargs[fw.cache_keyword] = cache
            state["forward"] = i
            outs.append([])
            consumed.append([])
            root(**kwargs)
            refs.append(Reference(fw, outs[-1], heads[-1], consumed[-1]))
    return refs


def loops(forwards: Sequence[Forward]) -> list[int]:
    """Each forward's decode loop: a forward that continues a cache belongs to the loop under
    way; any other starts its own."""
    loops: list[int] = []
    for i, fw in enumerate(forwards):
        loops.append(loops[-1] if fw.continues and loops else i)
    return loops

