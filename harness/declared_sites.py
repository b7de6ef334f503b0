"""Interventions declared as data (seed 000 §6's fire-once rule; issue 46 §2, after pyvene's
intervention sites read by one engine): a copy names the prompts it writes into and reads from,
the block, the positions on each side and the forward it falls in; a head edit names the
prompts, the block, the head and its width, the positions and the forward, and an edit of what
enters a block the prompts, the block, the positions and the forward; a decode loop's writes
name the prompts decoded, the block, the position and each prompt's steps. `copied`,
`within_blocks` and `decode_writes` resolve them against the experiment's unedited replay into
the sites harness.fire_once's check_writes compares, finding every forward, row and value by the
prompts read (harness.prompt_rows)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import torch

from harness.prompt_rows import decode_loops, forwards_reading, read_values, rows_of
from harness.replay import Reference, RunMismatch, Site, SourceNotRead


@dataclass(frozen=True)
class Prompts:
    """An anchor's prompts of one kind, each as token ids, and what the anchor calls them
    ("clean", "counterfactual")."""

    what: str
    ids: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, what: str, ids: Sequence[Sequence[int]]) -> Prompts:
        return cls(what, tuple(tuple(one) for one in ids))


@dataclass(frozen=True)
class At:
    """The run's forward `forward` (from 0)."""

    forward: int


@dataclass(frozen=True)
class Reading:
    """The `nth` of the run's forwards that read every prompt written into (from 0; -1 is the
    last)."""

    nth: int


@dataclass(frozen=True)
class Copy:
    """One declared write: in the forward `at` names, block `layer`'s output at `positions` of
    the rows that read `into` (only the `row`-th of them, where a batch reads one prompt in
    several rows told apart by place) holds `combine(base, source)`: `into`'s and `source`'s
    unedited block `layer` outputs at `positions` and `source_positions`, each prompt's from the
    first forward that read it; without `combine` (a plain copy), the source's value."""

    into: Prompts
    source: Prompts
    layer: int
    positions: tuple[int, ...]
    source_positions: tuple[int, ...]
    at: At | Reading
    row: int | None = None
    combine: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None


@dataclass(frozen=True)
class HeadWrite:
    """One declared head edit (seed 001 §1's): in the forward `at` names, head `head`'s slice of
    the input to block `layer`'s attention output projection (`width` features from head ×
    width), at `positions` of every row that read `into`, holds `value` ([len(positions),
    width])."""

    into: Prompts
    layer: int
    head: int
    width: int
    positions: tuple[int, ...]
    value: torch.Tensor
    at: At | Reading


@dataclass(frozen=True)
class InputWrite:
    """One declared edit of what enters a block (seed 001 §1's residual patch): in the forward
    `at` names, the hidden states entering block `layer`, at `positions` of every row that read
    `into`, hold `value` ([len(positions), d])."""

    into: Prompts
    layer: int
    positions: tuple[int, ...]
    value: torch.Tensor
    at: At | Reading


def _forwards(refs: Sequence[Reference],
              copies: Sequence[Copy | HeadWrite | InputWrite]) -> list[int]:
    """Each copy's forward; a RunMismatch where the run made fewer forwards on the written
    prompts than the copies counted among them need."""
    counted = [c for c in copies if isinstance(c.at, Reading)]
    reading = {c.into: forwards_reading(refs, c.into.ids) for c in counted}
    for into, found in reading.items():
        wanted = [c for c in counted if c.into == into]
        if any(not -len(found) <= c.at.nth < len(found) for c in wanted):
            raise SourceNotRead(
                f"the run made {len(refs)} forwards, {len(found)} of them on the anchor's "
                f"{into.what} prompts: {len(wanted)} writes, one per block of "
                f"{[c.layer for c in wanted]}, should each have one")
    return [c.at.forward if isinstance(c.at, At) else reading[c.into][c.at.nth] for c in copies]


def _rows(refs: Sequence[Reference], forward: int, c: Copy) -> tuple[int, ...]:
    """The rows of `forward` that `c` writes: every row that read `into`, or the `row`-th."""
    rows = rows_of(refs, forward, c.into.ids, c.into.what)
    return rows if c.row is None else (rows[c.row],)


def copied(copies: Sequence[Copy]) -> Callable[[list[Reference]], list[Site]]:
    """The sites `copies` must leave, built from the run's unedited replay (check_writes'
    `sites_for`): each source's values first, then each copy's forward and rows."""
    def sites_for(refs: list[Reference]) -> list[Site]:
        values: dict[Prompts, Callable[[int, Sequence[int]], torch.Tensor]] = {}

        def value(prompts: Prompts) -> Callable[[int, Sequence[int]], torch.Tensor]:
            if prompts not in values:
                values[prompts] = read_values(refs, prompts.ids, prompts.what)
            return values[prompts]

        for c in copies:
            value(c.source)
        sites = []
        for c, f in zip(copies, _forwards(refs, copies)):
            rows, source = _rows(refs, f, c), value(c.source)(c.layer, c.source_positions)
            written = source if c.combine is None else c.combine(
                value(c.into)(c.layer, c.positions), source)
            sites.append(Site(f, c.layer, rows, c.positions, written))
        return sites

    return sites_for


def within_blocks(writes: Sequence[HeadWrite | InputWrite]) -> Callable[[list[Reference]],
                                                                       list[Site]]:
    """The head and input sites `writes` must leave (check_writes' `sites_for`, `within` the
    blocks): each write's forward and rows found by the prompts read, its value repeated for
    every row."""
    def sites_for(refs: list[Reference]) -> list[Site]:
        sites = []
        for w, f in zip(writes, _forwards(refs, writes)):
            rows = rows_of(refs, f, w.into.ids, w.into.what)
            value = w.value[None].expand(len(rows), *w.value.shape)
            if isinstance(w, HeadWrite):
                columns = (w.head * w.width, (w.head + 1) * w.width)
                sites.append(Site(f, w.layer, rows, w.positions, value, columns))
            else:
                sites.append(Site(f, w.layer, rows, w.positions, value, block_input=True))
        return sites

    return sites_for


@dataclass(frozen=True)
class DecodeWrite:
    """A decode loop's writes (a decode-step bump): in the loop decoding prompt i, at each step
    of `steps[i]` (first and last; step 0 is the prefill), block `layer`'s output at `position`
    of that prompt's row holds `value(i, step)` ([d]), added to the unedited value where
    `added`; `what` names the steps in a mismatch ("noise arm")."""

    prompts: Prompts
    layer: int
    position: int
    steps: tuple[tuple[int, int], ...]
    value: Callable[[int, int], torch.Tensor]
    added: bool
    what: str


def decode_writes(write: DecodeWrite) -> Callable[[list[Reference]], list[Site]]:
    """The sites a decode loop's declared writes must leave, each loop's steps counted from the
    forward that starts it (check_writes' `sites_for`)."""
    def sites_for(refs: list[Reference]) -> list[Site]:
        sites = []
        for start, rows in decode_loops(refs, write.prompts.ids):
            for r, i in rows.items():
                first, last = write.steps[i]
                for step in range(first, last + 1):
                    if start + step >= len(refs):
                        raise RunMismatch(f"prompt {i}'s decode loop ended before step {step} of "
                                          f"its {write.what} {write.steps[i]}")
                    value = write.value(i, step)[None, None]
                    if write.added:
                        before = refs[start + step].value(write.layer, [r], [write.position])
                        value = before + value.to(before)
                    sites.append(Site(start + step, write.layer, (r,), (write.position,), value))
        return sites

    return sites_for
