"""Replaying an experiment's forwards through the plain transformers model (harness.fire_once):
the forwards one run made (harness.recorded_run) run again, unedited or with intended values
written by plain hooks, recording every block's output. A decode loop's forwards replay in order
on a key-value cache of the replay's own, fed the tokens the captured run read. Given the modules
inside the blocks, the replay also records what entered each block and what its attention output
projection consumed, and writes input and head sites there (harness.consumed_inputs)."""
from __future__ import annotations

import copy
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import nn

from harness.consumed_inputs import Inside, write_heads, write_inputs


@dataclass(frozen=True)
class Site:
    """What one write must leave: in the experiment's `forward`-th forward (from 0), block
    `layer`'s output at `rows` × `positions` holds `value` ([len(rows), len(positions), d]); a
    head site (`columns`, start and stop) names instead those features of what block `layer`'s
    attention output projection consumed, one head's slice of the heads' outputs; an input site
    (`block_input`) what entered block `layer`."""

    forward: int
    layer: int
    rows: tuple[int, ...]
    positions: tuple[int, ...]
    value: torch.Tensor
    columns: tuple[int, int] | None = None
    block_input: bool = False

    @property
    def place(self) -> str:
        """Where in its block the value lands: "input", "heads" (o_proj's input) or "output"."""
        return "input" if self.block_input else "heads" if self.columns is not None else "output"

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
    where recorded, what entered each block and what its attention output projection consumed
    (None where it has none)."""

    forward: Forward
    blocks: list[torch.Tensor]
    head: torch.Tensor
    inputs: list[torch.Tensor] = field(default_factory=list)
    projections: list[torch.Tensor | None] = field(default_factory=list)

    def at(self, place: str) -> list[torch.Tensor | None]:
        """Every block's tensor at `place` ("output", "input" or "heads")."""
        return {"output": self.blocks, "input": self.inputs, "heads": self.projections}[place]

    def value(self, layer: int, rows: Sequence[int], positions: Sequence[int]) -> torch.Tensor:
        """The unedited values at block `layer`, `rows` × `positions`: what a copy would write."""
        return self.blocks[layer][list(rows)][:, list(positions)]

    def unedited(self, s: Site) -> torch.Tensor:
        """What the replay held where `s` writes, at its place (and columns)."""
        held = self.at(s.place)[s.layer][list(s.rows)][:, list(s.positions)]
        return held if s.columns is None else held[..., s.columns[0]:s.columns[1]]


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
           inside: Inside | None = None) -> list[Reference]:
    """The plain transformers model run on each captured forward's inputs, in order, every
    block's output (and, given the modules `inside` the blocks, what entered each and what its
    projection consumed) recorded; with `sites`, each written by a plain hook (the independent
    reference of the nnsight write). Without sites, identical cache-free forwards run once."""
    state = {"forward": -1}
    outs: list[list[torch.Tensor]] = []
    entered: list[list[torch.Tensor]] = []
    consumed: list[list[torch.Tensor | None]] = []
    heads: list[torch.Tensor] = []

    def block_hook(index: int) -> Callable:
        def hook(module: nn.Module, args: tuple, output: Any) -> Any:
            out = block_output(output)
            mine = [s for s in sites if s.forward == state["forward"] and s.layer == index
                    and s.place == "output"]
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
    def at(i: int) -> Callable[[], list[Site]]:
        return lambda: [s for s in sites if s.forward == state["forward"] and s.layer == i]

    if inside is not None:
        handles += [b.register_forward_pre_hook(write_inputs(at(i)), with_kwargs=True)
                    for i, b in enumerate(blocks)]
        handles += [n.register_forward_pre_hook(
            lambda m, a: entered[-1].append(a[0].detach().clone())) for n in inside.norms]
        for i, p in enumerate(inside.projections):
            if p is None:
                continue
            handles.append(p.register_forward_pre_hook(write_heads(
                at(i), lambda x, i=i: consumed[-1].__setitem__(i, x))))
    refs: list[Reference] = []
    cache = None
    with hooks(handles), torch.no_grad():
        for i, fw in enumerate(forwards):
            same = None if sites else next((r for r in refs if _same_inputs(r.forward, fw)), None)
            if same is not None:
                refs.append(Reference(fw, same.blocks, same.head, same.inputs, same.projections))
                continue
            kwargs = dict(fw.kwargs)
            if fw.cache is not None:
                cache = copy.deepcopy(fw.cache)
            if fw.cache_keyword is not None:
                kwargs[fw.cache_keyword] = cache
            state["forward"] = i
            outs.append([])
            entered.append([])
            consumed.append([None] * len(blocks) if inside else [])
            root(**kwargs)
            refs.append(Reference(fw, outs[-1], heads[-1], entered[-1], consumed[-1]))
    return refs


def loops(forwards: Sequence[Forward]) -> list[int]:
    """Each forward's decode loop: a forward that continues a cache belongs to the loop under
    way; any other starts its own."""
    loops: list[int] = []
    for i, fw in enumerate(forwards):
        loops.append(loops[-1] if fw.continues and loops else i)
    return loops

