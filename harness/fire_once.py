"""Fire-once anchors (seed 000 §6's "changing one thing changes exactly that"): an intervention,
run through the experiment's own code, writes the value it was asked to write, at the block,
rows and positions it was asked to, in the forward it was asked to, and changes nothing it
could not have changed; and a plain-PyTorch forward-hook write of the same values gives the same
output (the independent reference).

The experiment runs twice under forward hooks on its transformers modules: once to capture each
forward's inputs (a pre-hook on the model's root), and once to compare every block's output with
a plain, unedited transformers forward on those same inputs. Neither run reads nnsight's state.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import torch
from torch import nn

# bf16 keeps 8 significant bits: a reference forward that writes the same values may differ from
# nnsight's only by the kernels' reduction order, bounded here at a few units in the last place.
BF16_REFERENCE_RTOL = 2 ** -6
BF16_REFERENCE_ATOL = 2 ** -6


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
class Reference:
    """One forward's inputs as the model received them, and its unedited block outputs and
    final-position head output from a plain transformers forward on those inputs."""

    kwargs: dict[str, Any]
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

    def measured(self) -> dict[str, Any]:
        return {"forwards": self.forwards, "edited_forwards": self.edited_forwards,
                "sites": self.sites, "site_holds_value": self.site_holds_value,
                "untouched_identical": self.untouched_identical,
                "output_changed": self.output_changed, "reference_equal": self.reference_equal,
                "failures": self.failures[:5]}


# What an anchor's claim declares it must measure: every check true, on every profile.
FIRES_ONCE = {"site_holds_value": True, "untouched_identical": True, "output_changed": True,
              "reference_equal": True}


def _tensor(output: Any) -> torch.Tensor:
    return output[0] if isinstance(output, tuple) else output


@contextmanager
def _hooks(handles: list[Any]) -> Iterator[None]:
    try:
        yield
    finally:
        for h in handles:
            h.remove()


def capture_inputs(root: nn.Module, run: Callable[[], Any]) -> list[dict[str, Any]]:
    """The keyword inputs of every forward `run` makes through `root`, in order."""
    seen: list[dict[str, Any]] = []

    def pre(module: nn.Module, args: tuple, kwargs: dict[str, Any]) -> None:
        if args:
            kwargs = {"input_ids": args[0], **kwargs}
        seen.append({k: v.detach().clone() if torch.is_tensor(v) else v for k, v in kwargs.items()
                     if v is not None})

    with _hooks([root.register_forward_pre_hook(pre, with_kwargs=True)]), torch.no_grad():
        run()
    return seen


def reference(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
              kwargs: dict[str, Any], sites: Sequence[Site] = ()) -> Reference:
    """A plain transformers forward on `kwargs`, its block outputs recorded; with `sites`, each
    written by a plain forward hook (the independent reference of the nnsight write)."""
    outs: list[torch.Tensor] = []
    head_out: list[torch.Tensor] = []

    def block_hook(index: int) -> Callable:
        def hook(module: nn.Module, args: tuple, output: Any) -> Any:
            out = _tensor(output)
            mine = [s for s in sites if s.layer == index]
            if mine:
                out = out.clone()
                for s in mine:
                    rows = torch.tensor(s.rows, device=out.device)[:, None]
                    cols = torch.tensor(s.positions, device=out.device)[None, :]
                    out[rows, cols] = s.value.to(device=out.device, dtype=out.dtype)
            outs.append(out.detach().clone())
            if mine:
                return (out, *output[1:]) if isinstance(output, tuple) else out
            return None
        return hook

    handles = [b.register_forward_hook(block_hook(i)) for i, b in enumerate(blocks)]
    handles.append(head.register_forward_hook(
        lambda m, a, o: head_out.append(_tensor(o)[:, -1].detach().float().cpu())))
    with _hooks(handles), torch.no_grad():
        root(**kwargs)
    return Reference(kwargs, outs, head_out[0])


@dataclass
class _Compare:
    """The compare run's state: the forward under way and what each block hook found."""

    refs: list[Reference]
    sites: list[Site]
    forward: int = -1
    failures: list[str] = field(default_factory=list)
    heads: list[torch.Tensor] = field(default_factory=list)
    holds: bool = True
    untouched: bool = True

    def allowed(self, forward: int, layer: int, shape: tuple[int, int]) -> torch.Tensor:
        """Cells that may differ from the unedited run: the sites written at this block, and
        (causal attention) every later position of a row written at an earlier block."""
        mask = torch.zeros(shape, dtype=torch.bool, device="cpu")
        for s in self.sites:
            if s.forward != forward or s.layer > layer:
                continue
            if s.layer == layer:
                for r, p in s.cells(shape[1]):
                    mask[r, p] = True
            else:
                first = min(p % shape[1] for p in s.positions)
                mask[list(s.rows), first:] = True
        return mask

    def block(self, layer: int, out: torch.Tensor) -> None:
        f = self.forward
        if f >= len(self.refs):
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


def _reaches_output(sites: Sequence[Site], forward: int, n_blocks: int, length: int) -> bool:
    """Whether forward `forward`'s writes can move the final position's output: a write before
    the last block does, and at the last block only a write at the final position."""
    return any(s.layer < n_blocks - 1 or any(p % length == length - 1 for p in s.positions)
               for s in sites if s.forward == forward)


def fire_once(root: nn.Module, blocks: Sequence[nn.Module], head: nn.Module,
              run: Callable[[], Any],
              sites_for: Callable[[list[Reference]], list[Site]]) -> FireOnce:
    """Run the experiment (`run`) under the capture hook, build its intended `sites` from the
    unedited references of its forwards, run it again comparing every block with them, and
    write the same sites through plain forward hooks for the reference output."""
    refs = [reference(root, blocks, head, kw) for kw in capture_inputs(root, run)]
    sites = sites_for(refs)
    state = _Compare(refs, sites)
    edited = sorted({s.forward for s in sites})
    for s in sites:
        if s.forward >= len(refs) or s.layer >= len(blocks):
            raise ValueError(f"a site at forward {s.forward}, block {s.layer} is outside the run "
                             f"({len(refs)} forwards, {len(blocks)} blocks)")
    inert = [f for f in edited if all(
        torch.equal(s.value.to(refs[f].blocks[s.layer]), refs[f].value(s.layer, s.rows, s.positions))
        for s in sites if s.forward == f)]

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
    forwards = state.forward + 1
    if forwards != len(refs):
        state.untouched = False
        failures.append(f"the compare run made {forwards} forwards, the capture run {len(refs)}")
    changed, equal = bool(edited), bool(edited)
    for f in edited:
        if f >= len(state.heads):
            changed = equal = False
            continue
        rows = sorted({r for s in sites if s.forward == f for r in s.rows})
        got = state.heads[f]
        if _reaches_output(sites, f, len(blocks), refs[f].blocks[0].shape[1]) and \
                torch.equal(got[rows], refs[f].head[rows]):
            changed = False
            failures.append(f"forward {f}: the written rows' output did not change")
        ref = reference(root, blocks, head, refs[f].kwargs, [s for s in sites if s.forward == f])
        exact = ref.blocks[0].dtype == torch.float32
        if not (torch.equal(got, ref.head) if exact else torch.allclose(
                got, ref.head, rtol=BF16_REFERENCE_RTOL, atol=BF16_REFERENCE_ATOL)):
            equal = False
            failures.append(f"forward {f}: the plain forward-hook write gives other logits "
                            f"(max abs diff {float((got - ref.head).abs().max()):.3g})")
    if not edited:
        failures.append("no site to check: the anchor wrote nothing")
    for f in inert:
        failures.append(f"forward {f}: every value to be written is already there, so a write "
                        f"that never happened would pass")
    return FireOnce(forwards, len(edited), len(sites), state.holds and bool(sites) and not inert,
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
