"""The fire-once comparison (harness.fire_once; seed 000 §6's "changing one thing changes exactly
that"): every block output, and what every watched attention output projection consumed, against
the unedited replay, cell by cell; and the sites that fall outside the run."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import torch
from torch import nn

from harness.replay import Reference, RunMismatch, Site


@dataclass
class Comparison:
    """The comparison's state: the forward under way and what each block's output showed."""

    refs: list[Reference]
    sites: list[Site]
    loop: list[int]  # each forward's decode loop: forwards that share a key-value cache
    forward: int = -1
    failures: list[str] = field(default_factory=list)
    holds: bool = True
    untouched: bool = True
    consumed: set[tuple[int, int]] = field(default_factory=set)  # (forward, block) projections seen

    def allowed(self, forward: int, layer: int, shape: tuple[int, int],
                own: bool = True) -> torch.Tensor:
        """Cells that may differ from the unedited replay: the sites written at this block
        (unless `own` is false: inside the block, before its writes); every later position of a
        row written at an earlier block (causal attention); and, in a decode loop, every block
        after one written at an earlier step (its cache moved)."""
        mask = torch.zeros(shape, dtype=torch.bool, device="cpu")
        for s in self.sites:
            if s.forward > forward or s.layer > layer or (
                    not own and s.forward == forward and s.layer == layer):
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
        ref = self.refs[f].blocks[layer]
        if out.shape != ref.shape:
            self.untouched = False
            self.failures.append(f"forward {f} block {layer}: shape {list(out.shape)} against "
                                 f"{list(ref.shape)}")
            return
        for s in (s for s in self.sites if s.forward == f and s.layer == layer
                  and s.columns is None):
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

    def projection(self, layer: int, consumed: torch.Tensor) -> None:
        """What block `layer`'s attention output projection consumed: each head site's value in
        its columns, and every other column and cell as the replay's, but downstream of writes."""
        f = self.forward
        self.consumed.add((f, layer))
        expected = self.refs[f].projections[layer].clone()
        if consumed.shape != expected.shape:
            self.untouched = False
            self.failures.append(f"forward {f} block {layer} projection: shape "
                                 f"{list(consumed.shape)} against {list(expected.shape)}")
            return
        for s in (s for s in self.sites if s.forward == f and s.layer == layer
                  and s.columns is not None):
            rows, cols = list(s.rows), list(s.positions)
            value = s.value.to(device=consumed.device, dtype=consumed.dtype)
            if not torch.equal(consumed[rows][:, cols, s.columns[0]:s.columns[1]], value):
                self.holds = False
                self.failures.append(f"forward {f} block {layer} rows {rows} positions {cols} "
                                     f"columns {list(s.columns)}: the written value is not there")
            # The site's own columns are judged above; its cells' other columns must not move.
            at = (torch.tensor(rows)[:, None], torch.tensor(cols)[None, :],
                  slice(s.columns[0], s.columns[1]))
            expected[at] = consumed[at].to(expected)
        changed = (consumed != expected.to(consumed.device)).any(-1).cpu()
        stray = changed & ~self.allowed(f, layer, tuple(changed.shape), own=False)
        if stray.any():
            self.untouched = False
            r, p = (int(x) for x in stray.nonzero()[0])
            self.failures.append(f"forward {f} block {layer} projection: row {r} position {p} "
                                 f"changed outside the heads written there")

    def unconsumed(self) -> None:
        """A head site whose projection was never seen consuming anything: its value is not there."""
        for s in self.sites:
            if s.columns is not None and (s.forward, s.layer) not in self.consumed:
                self.holds = False
                self.failures.append(f"forward {s.forward} block {s.layer}: its attention output "
                                     f"projection was never seen consuming the head written")


def reaches_output(sites: Sequence[Site], forward: int, n_blocks: int, length: int,
                   projections: Sequence[nn.Module] = ()) -> bool:
    """Whether forward `forward`'s writes can move the final position's output: a write before
    the last block does, and at the last block only a write at the final position; a head site
    only where its projection's columns are not all zero (a head the model never reads)."""
    def read(s: Site) -> bool:
        return s.columns is None or bool(
            projections[s.layer].weight[:, s.columns[0]:s.columns[1]].any())

    return any(read(s) and (s.layer < n_blocks - 1 or any(p % length == length - 1
                                                          for p in s.positions))
               for s in sites if s.forward == forward)


def outside(sites: Sequence[Site], refs: list[Reference], n_blocks: int) -> None:
    """RunMismatch naming the first site that falls outside the forwards the run made."""
    for s in sites:
        if s.forward >= len(refs) or s.layer >= n_blocks:
            raise RunMismatch(f"a site at forward {s.forward}, block {s.layer} is outside the run "
                              f"({len(refs)} forwards, {n_blocks} blocks)")
        rows, positions = refs[s.forward].blocks[s.layer].shape[:2]
        consumed = refs[s.forward].projections
        if s.columns is not None and not (
                consumed and 0 <= s.columns[0] < s.columns[1] <= consumed[s.layer].shape[-1]):
            raise RunMismatch(f"a head site at forward {s.forward}, block {s.layer}, columns "
                              f"{list(s.columns)} is outside what the block's attention output "
                              f"projection consumed")
        if (max(s.rows, default=0) >= rows or max(s.positions, default=0) >= positions
                or min(s.positions, default=0) < -positions):
            raise RunMismatch(f"a site at forward {s.forward}, block {s.layer}, rows "
                              f"{list(s.rows)}, positions {list(s.positions)} is outside that "
                              f"forward ({rows} rows, {positions} positions): the run did not "
                              f"make the forward its sites describe")
