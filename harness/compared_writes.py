"""The fire-once comparison (harness.fire_once; seed 000 §6's "changing one thing changes exactly
that"): every block's output, and where watched what entered it and what its attention output
projection consumed, against the unedited replay, cell by cell; and the sites that fall outside
the run."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import torch
from torch import nn

from harness.recorded_run import Recorded, Watched
from harness.replay import Reference, RunMismatch, Site


# Where in a block a value lands, in the order a forward reaches them, and how a failure names it.
STAGES = {"input": 0, "heads": 1, "output": 2}
WHERE = {"input": "block {} input", "heads": "block {} projection", "output": "block {}"}


def reaches(s: Site, layer: int, place: str, same_forward: bool) -> str | None:
    """What a site can move at block `layer`'s `place`: "cells" (its own, position-wise: a head
    site at its block's output), "rows" (every later position of its rows: attention lies
    between) or None (downstream, or its own place, whose values `compare` judges). In a later
    forward of its decode loop it moves only what reads a key-value cache it moved: blocks
    after it, and its own block's heads and output where it wrote what entered the block."""
    first = s.layer + (0 if s.place == "input" else 1)  # the first block whose cache it moves
    if not same_forward:
        return "rows" if first <= layer - (place == "input") else None
    here, there = STAGES[place], STAGES[s.place]
    if (s.layer, there) >= (layer, here):  # downstream, or the site's own place (judged apart)
        return None
    return "cells" if s.layer == layer and s.place == "heads" else "rows"


@dataclass
class Comparison:
    """The comparison's state: the forward under way, what each recorded tensor showed, and the
    places seen (place, forward, block)."""

    refs: list[Reference]
    sites: list[Site]
    loop: list[int]  # each forward's decode loop: forwards that share a key-value cache
    forward: int = -1
    failures: list[str] = field(default_factory=list)
    holds: bool = True
    untouched: bool = True
    seen: set[tuple[str, int, int]] = field(default_factory=set)

    def allowed(self, forward: int, layer: int, shape: tuple[int, int],
                place: str = "output") -> torch.Tensor:
        """Cells that may differ from the unedited replay at block `layer`'s `place`, beyond the
        values written there: the cells of its heads' sites at its output; every later position
        of a row written upstream (causal attention); and, in a decode loop, every row whose
        cache an earlier step's write moved."""
        mask = torch.zeros(shape, dtype=torch.bool, device="cpu")
        for s in self.sites:
            if s.forward > forward or (s.forward < forward
                                       and self.loop[s.forward] != self.loop[forward]):
                continue
            how = reaches(s, layer, place, s.forward == forward)
            if s.forward < forward and how:
                mask[list(s.rows), :] = True
            elif how == "cells":
                for r, p in s.cells(shape[1]):
                    mask[r, p] = True
            elif how == "rows":
                first = min(p % shape[1] for p in s.positions)
                mask[list(s.rows), first:] = True
        return mask

    def compare(self, place: str, layer: int, got: torch.Tensor) -> None:
        """One recorded tensor of the forward under way, block `layer`'s at `place`, against the
        replay's: each site there holds its value, and every other cell (and, at a head site's
        cells, every other column) is the replay's, but downstream of writes."""
        f, where = self.forward, WHERE[place].format(layer)
        self.seen.add((place, f, layer))
        expected = self.refs[f].at(place)[layer].clone()
        if got.shape != expected.shape:
            self.untouched = False
            self.failures.append(f"forward {f} {where}: shape {list(got.shape)} against "
                                 f"{list(expected.shape)}")
            return
        for s in (s for s in self.sites if (s.forward, s.layer, s.place) == (f, layer, place)):
            at = (torch.tensor(s.rows)[:, None], torch.tensor(s.positions)[None, :],
                  slice(None) if s.columns is None else slice(*s.columns))
            if not torch.equal(got[at], s.value.to(device=got.device, dtype=got.dtype)):
                self.holds = False
                columns = "" if s.columns is None else f" columns {list(s.columns)}"
                self.failures.append(f"forward {f} {where} rows {list(s.rows)} positions "
                                     f"{list(s.positions)}{columns}: the written value is not "
                                     f"there")
            expected[at] = got[at].to(expected)  # judged above; the rest of its cells may not move
        changed = (got != expected.to(got.device)).any(-1).cpu()
        stray = changed & ~self.allowed(f, layer, tuple(changed.shape), place)
        if stray.any():
            self.untouched = False
            r, p = (int(x) for x in stray.nonzero()[0])
            self.failures.append(f"forward {f} {where}: row {r} position {p} changed, which "
                                 f"nothing was written to or upstream of")

    def compare_run(self, recorded: Recorded) -> None:
        """Every tensor the run recorded, forward by forward: each block's output and, where
        watched, what entered it and what its attention output projection consumed."""
        for f, outputs in enumerate(recorded.blocks):
            self.forward = f
            for place, seen in (("output", outputs), ("input", recorded.inputs[f]),
                                ("heads", recorded.projections[f])):
                for layer, got in seen:
                    self.compare(place, layer, got)

    def unseen(self) -> None:
        """An input or head site whose place was never seen: its value is not there."""
        for s in self.sites:
            if s.place != "output" and (s.place, s.forward, s.layer) not in self.seen:
                self.holds = False
                self.failures.append(f"forward {s.forward} {WHERE[s.place].format(s.layer)} was "
                                     f"never seen consuming the value written there")


def reaches_output(sites: Sequence[Site], forward: int, n_blocks: int, length: int,
                   projections: Sequence[nn.Module | None] = ()) -> bool:
    """Whether forward `forward`'s writes can move the final position's output: a write before
    the last block's output does, and at the last block's output only a write at the final
    position; a head site only where its projection's columns are not all zero (a head the
    model never reads)."""
    def read(s: Site) -> bool:
        return s.columns is None or bool(
            projections[s.layer].weight[:, s.columns[0]:s.columns[1]].any())

    return any(read(s) and (s.layer < n_blocks - 1 or s.place == "input"
                            or any(p % length == length - 1 for p in s.positions))
               for s in sites if s.forward == forward)


def outside(sites: Sequence[Site], refs: list[Reference], n_blocks: int) -> None:
    """RunMismatch naming the first site that falls outside the forwards the run made."""
    for s in sites:
        if s.forward >= len(refs) or s.layer >= n_blocks:
            raise RunMismatch(f"a site at forward {s.forward}, block {s.layer} is outside the run "
                              f"({len(refs)} forwards, {n_blocks} blocks)")
        rows, positions = refs[s.forward].blocks[s.layer].shape[:2]
        held = refs[s.forward].at(s.place)
        if not held or held[s.layer] is None:
            raise RunMismatch(f"a site at forward {s.forward}, {WHERE[s.place].format(s.layer)} "
                              f"is outside what the run recorded: the check was not asked to "
                              f"read inside the blocks, or the block has no linear projection")
        if s.columns is not None and not 0 <= s.columns[0] < s.columns[1] <= held[s.layer].shape[-1]:
            raise RunMismatch(f"a head site at forward {s.forward}, block {s.layer}, columns "
                              f"{list(s.columns)} is outside what the block's attention output "
                              f"projection consumed")
        if (max(s.rows, default=0) >= rows or max(s.positions, default=0) >= positions
                or min(s.positions, default=0) < -positions):
            raise RunMismatch(f"a site at forward {s.forward}, block {s.layer}, rows "
                              f"{list(s.rows)}, positions {list(s.positions)} is outside that "
                              f"forward ({rows} rows, {positions} positions): the run did not "
                              f"make the forward its sites describe")


def recorded_sites(hf: nn.Module, run: Callable[[], Any],
                   sites_for: Callable[[list[Reference]], list[Site]],
                   within: bool) -> tuple[Watched, Recorded, list[Reference], list[Site]]:
    """The experiment run once under the recording hooks (and, `within` the blocks, those
    inside them), its forwards replayed unedited, and the sites its declaration resolves to
    there; a RunMismatch where the run did not make what they describe."""
    model = Watched.of(hf, within)
    recorded = model.record(run)
    refs = model.replay(recorded.forwards)
    sites = sites_for(refs)
    outside(sites, refs, len(model.blocks))
    return model, recorded, refs, sites
