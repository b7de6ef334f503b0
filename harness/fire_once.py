"""Fire-once anchors (seed 000 §6's "changing one thing changes exactly that"): an intervention,
run through the experiment's own code, writes the value it was asked to write, at the block,
rows and positions it was asked to, in the forward it was asked to, and changes nothing it
could not have changed; and plain-PyTorch forward hooks writing the same values give the same
output (the independent reference).

The experiment runs twice under hooks on its transformers modules: once to capture each
forward's inputs (a pre-hook on the model's root), and once to compare every block's output with
an unedited replay of those inputs through the plain transformers model. A decode loop's forwards
replay in order, on a key-value cache of the replay's own, fed the tokens the edited run read.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import nn

# bf16 keeps 8 significant bits: a replay writing the same values may differ from nnsight's run
# only by the kernels' reduction order, bounded here at a few units in the last place.
BF16_REFERENCE_RTOL = 2 ** -6
BF16_REFERENCE_ATOL = 2 ** -6

NEEDS_LOCAL_WEIGHTS = ("a fire-once anchor reads every block through plain forward hooks on the "
                       "model in this process; on NDIF it runs remotely: run it with --backend=local")

# What a fire-once anchor declares it must measure: every check true, on every profile.
FIRES_ONCE = {"site_holds_value": True, "untouched_identical": True, "output_changed": True,
              "reference_equal": True}


@dataclass(frozen=True)
class Site:
    """What one write must leave: in the experiment's `forward`-th forward (from 0), block
    `layer`'s output at `rows` × `positions` holds `value` ([len(rows), len(positions), d])."""

    forward: int
    layer: int
    rows: tuple[int, ...]
    positions: tuple[int, ...]
    value: torch.Tensor

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
    """One forward of the unedited replay: its block outputs and final-position head output."""

    forward: Forward
    blocks: list[torch.Tensor]
    head: torch.Tensor

    def value(self, layer: int, rows: Sequence[int], positions: Sequence[int]) -> torch.Tensor:
        """The unedited values at block `layer`, `rows` × `positions`: what a copy would write."""
        return self.blocks[layer][list(rows)][:, list(positions)]


@dataclass
class FireOnce:
    """What the compare run found: each check, and every failure in words naming the machinery."""

    forwards: int
    edited_forwards: int
    sites: int
    site_holds_value: bool
    untouched_identical: bool
    output_changed: bool
    reference_equal: bool
    failures: list[str] = field(default_factory=list)


def _tensor(output: Any) -> torch.Tensor:
    return output[0] if isinstance(output, tuple) else output


@contextmanager
def _hooks(handles: list[Any]) -> Iterator[None]:
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


def capture_inputs(root: nn.Module, run: Callable[[], Any]) -> list[Forward]:
    """The inputs of every forward `run` makes through `root`, in order."""
    seen: list[Forward] = []

    def pre(module: nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
        if args:
            kwargs = {"input_ids": args[0], **kwargs}
        name = next((k for k, v in kwargs.items() if _is_cache(v)), None)
        kept = {k: v.detach().clone() if torch.is_tensor(v) else v for k, v in kwargs.items()
                if v is not None and k != name}
        if name is None:
            seen.append(Forward(kept))
        elif _cache_len(kwargs[name]) == 0:
            seen.append(Forward(kept, name, cache=copy.deepcopy(kwargs[name])))
        else:
            seen.append(Forward(kept, name, continues=True))

    with _hooks([root.register_forward_pre_hook(pre, with_kwargs=True)]), torch.no_grad():
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
           forwards: Sequence[Forward], sites: Sequence[Site] = ()) -> list[Reference]:
    """The plain transformers model run on each captured forward's inputs, in order, every
    block's output recorded; with `sites`, each written by a plain forward hook (the independent
    reference of the nnsight write). Without sites, identical cache-free forwards run once."""
    state = {"forward": -1}
    outs: list[list[torch.Tensor]] = []
    heads: list[torch.Tensor] = []

    def block_hook(index: int) -> Callable:
        def hook(module: nn.Module, args: tuple, output: Any) -> Any:
            out = _tensor(output)
            mine = [s for s in sites if s.forward == state["forward"] and s.layer == index]
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
        lambda m, a, o: heads.append(_tensor(o)[:, -1].detach().float().cpu())))
    refs: list[Reference] = []
    cache = None
    with _hooks(handles), torch.no_grad():
        for i, fw in enumerate(forwards):
            same = None if sites else next((r for r in refs if _same_inputs(r.forward, fw)), None)
            if same is not None:
                refs.append(Reference(fw, same.blocks, same.head))
                continue
            kwargs = dict(fw.kwargs)
            if fw.cache is not None:
                cache = copy.deepcopy(fw.cache)
            if fw.cache_keyword is not None:
                kwargs[fw.cache_keyword] = cache
            state["forward"] = i
            outs.append([])
            root(**kwargs)
            refs.append(Reference(fw, outs[-1], heads[-1]))
    return refs


@dataclass
class _Compare:
    """The compare run's state: the forward under way and what each block hook found."""

    refs: list[Reference]
    sites: list[Site]
    loop: list[int]  # each forward's decode loop: forwards that share a key-value cache
    forward: int = -1
    failures: list[str] = field(default_factory=list)
    heads: list[torch.Tensor] = field(default_factory=list)
    holds: bool = True
    untouched: bool = True

    def allowed(self, forward: int, layer: int, shape: tuple[int, int]) -> torch.Tensor:
        """Cells that may differ from the unedited replay: the sites written at this block;
        every later position of a row written at an earlier block (causal attention); and, in
        a decode loop, every block after one written at an earlier step (its cache moved)."""
        mask = torch.zeros(shape, dtype=torch.bool, device="cpu")
        for s in self.sites:
            if s.forward > forward or s.layer > layer:
                continue
            if s.forward < forward:
                if s.layer < layer and self.loop[s.forward] == self.loop[forward]:
                    mask[list(s.rows), :] = True
            elif s.layer == layer:
                for r, p in s.cells(shape[1]):
                    mask[r, p] = True
            else:
                first = min(p % shape[1] for p in s.positions)
                mask[list(s.rows), first:] = True
        return mask

    def block(self, layer: int, out: torch.Tensor) -> None:
        f = self.forward
        if f >= len(self.refs):
            if layer == 0:
                self.untouched = False
                self.failures.append(f"forward {f} was not made by the capture run")
            return
        ref = self.refs[f].blocks[layer]
        if out.shape != ref.shape:
            self.untouched = False
            self.failures.append(f"forward {f} block {layer}: shape {list(out.shape)} against "
                                 f"{list(ref.shape)}")
            return
        for s in (s for s in self.sites if s.forward == f and s.layer == layer):
            got = out[list(s.rows)][:, list(s.positions)]
            if not torch.equal(got, s.value.to(device=got.device, dtype=got.dtype)):
                self.holds = False
                self.failures.append(f"forward {f} block {layer} rows {list(s.rows)} positions "
                                     f"{list(s.positions)}: the written value is not there")
        changed = (out != ref).any(-1).cpu()
        stray = changed & ~self.allowed(f, layer, tuple(changed.shape))
        if stray.any():
            self.untouched = False
            r, p = (int(x) for x in stray.nonzero()[0])
            self.failures.append(f"forward {f} block {layer}: row {r} position {p} changed, "
                                 f"which nothing was written to or upstream of")


def _loops(forwards: Sequence[Forward]) -> list[int]:
    """Each forward's decode loop: a forward that continues a cache belongs to the loop under
    way; any other starts its own."""
    loops: list[int] = []
    for i, fw in enumerate(forwards):
        loops.append(loops[-1] if fw.continues and loops else i)
    return loops


def _reaches_output(sites: Sequence[Site], forward: int, n_blocks: int, length: int) -> bool:
    """Whether forward `forward`'s writes can move the final position's output: a write before
    the last block does, and at the last block only a write at the final position."""
    return any(s.layer < n_blocks - 1 or any(p % length == length - 1 for p in s.positions)
               for s in sites if s.forward == forward)


def fire_once(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
              run: Callable[[], Any],
              sites_for: Callable[[list[Reference]], list[Site]]) -> FireOnce:
    """Run the experiment (`run`) under the capture hook, build its intended sites from the
    unedited replay of its forwards, run it again comparing every block with the replay, and
    replay once more with the sites written by plain forward hooks for the reference output."""
    captured = capture_inputs(root, run)
    refs = replay(root, blocks, head, captured)
    sites = sites_for(refs)
    for s in sites:
        if s.forward >= len(refs) or s.layer >= len(blocks):
            raise ValueError(f"a site at forward {s.forward}, block {s.layer} is outside the run "
                             f"({len(refs)} forwards, {len(blocks)} blocks)")
    edited = sorted({s.forward for s in sites})
    # A forward whose every value is already there (a copy where clean and corrupted agree) is
    # still checked, but cannot show a write happened; at least one forward must.
    inert = [f for f in edited if all(
        torch.equal(s.value.to(refs[f].blocks[s.layer]), refs[f].value(s.layer, s.rows, s.positions))
        for s in sites if s.forward == f)]
    state = _Compare(refs, sites, _loops(captured))

    def start(module: nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
        state.forward += 1

    def block_hook(index: int) -> Callable:
        return lambda m, a, o: state.block(index, _tensor(o))

    handles = [root.register_forward_pre_hook(start, with_kwargs=True)]
    handles += [b.register_forward_hook(block_hook(i)) for i, b in enumerate(blocks)]
    handles.append(head.register_forward_hook(
        lambda m, a, o: state.heads.append(_tensor(o)[:, -1].detach().float().cpu())))
    with _hooks(handles), torch.no_grad():
        run()
    failures = state.failures
    if state.forward + 1 != len(refs):
        state.untouched = False
        failures.append(f"the compare run made {state.forward + 1} forwards, the capture run "
                        f"{len(refs)}")
    written = replay(root, blocks, head, captured, sites) if edited else []
    changed, equal = bool(edited), bool(edited)
    for f in edited:
        if f >= len(state.heads):
            changed = equal = False
            continue
        got, rows = state.heads[f], sorted({r for s in sites if s.forward == f for r in s.rows})
        if f not in inert and _reaches_output(sites, f, len(blocks), refs[f].blocks[0].shape[1]) \
                and torch.equal(got[rows], refs[f].head[rows]):
            changed = False
            failures.append(f"forward {f}: the written rows' output did not change")
    for f, ref in enumerate(written):
        got = state.heads[f] if f < len(state.heads) else None
        exact = ref.blocks[0].dtype == torch.float32
        if got is None or not (torch.equal(got, ref.head) if exact else torch.allclose(
                got, ref.head, rtol=BF16_REFERENCE_RTOL, atol=BF16_REFERENCE_ATOL)):
            equal = False
            diff = "none made" if got is None else f"max abs diff {float((got - ref.head).abs().max()):.3g}"
            failures.append(f"forward {f}: the plain forward-hook write gives other logits ({diff})")
    if not edited:
        failures.append("no site to check: the anchor wrote nothing")
    elif len(inert) == len(edited):
        failures.append("every value to be written is already there, so a write that never "
                        "happened would pass")
    return FireOnce(len(refs), len(edited), len(sites),
                    state.holds and bool(sites) and len(inert) < len(edited),
                    state.untouched, changed, equal, failures)


def all_hold(result: FireOnce | dict[str, FireOnce]) -> dict[str, bool]:
    """The four checks of an anchor of one or several parts, each true where every part passed."""
    parts = list(result.values()) if isinstance(result, dict) else [result]
    return {key: all(getattr(p, key) for p in parts) for key in FIRES_ONCE}


def failures(result: FireOnce | dict[str, FireOnce]) -> list[str]:
    """Every part's failures, prefixed with the part's name where there are several."""
    if isinstance(result, dict):
        return [f"{name}: {msg}" for name, part in result.items() for msg in part.failures]
    return list(result.failures)


def measured(result: FireOnce | dict[str, FireOnce]) -> dict[str, Any]:
    """What a fire-once anchor records: the four checks, the sites it checked (per part where
    there are several; the forwards they fall in depend on the mode's batching, so are left out)
    and the first failures."""
    parts = result if isinstance(result, dict) else {"": result}
    return {**all_hold(result), "sites": {name or "all": p.sites for name, p in parts.items()},
            "failures": failures(result)[:5]}


def judge_fires_once(judge: Callable[[dict[str, Any]], None],
                     result: FireOnce | dict[str, FireOnce]) -> None:
    """A fire-once anchor's body: fail naming every failure (on every profile: the machinery
    broke), else record what it measured."""
    failed = failures(result)
    assert not failed, failed
    judge(measured(result))
