"""Issue 36's batched-row rule, derived for any declared intervention (issue 46 §2): a few rows
of each forward the experiment made (the first, middle and last of a batch), each run as one plain forward of its own prompt
through the transformers model (its padding dropped, its own declared writes made by plain
hooks), give the output they gave in the batch, within the kernels' batch-size noise. A decode
loop's rows are decoded alone the same way: each row's prefill, then the tokens the batch fed
it, on a key-value cache of its own (seed 000 §1's greedy loop), every step's output against the
batch's. A batch that moves its rows (positions counted over the padding, a mask hiding a token)
fails."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypedDict

import torch
from torch import nn

from harness.compared_writes import recorded_sites
from harness.recorded_run import Recorded, Watched
from harness.replay import Forward, Reference, RunMismatch, Site, loops
from harness.standard_anchors import StandardAnchor

# (rtol, atol) between a row's output in its batch and alone: a batch of another size sums in
# another order, about 1e-6 of a logit in float32; bf16 keeps 8 significant bits, about 0.1 at a
# logit of 20 (harness.sources.cot.batched_rows allows a decode step the same 0.5).
TOLERANCE = {torch.float32: (1e-4, 1e-4), torch.bfloat16: (2 ** -6, 0.5)}
TOLERANCE_REASON = ("a batch of another size sums in another order: about 1e-6 of a logit in "
                    "float32 (allowed 1e-4), about 0.1 in bf16 (allowed 0.5)")


@dataclass
class AloneRows:
    """How many forwards the run made and rows were re-run alone, and each mismatch."""

    forwards: int
    rows: int
    mismatched: list[str] = field(default_factory=list)


def chosen(n: int) -> list[int]:
    """The rows re-run of a batch of `n`: the first, the middle and the last."""
    return sorted({0, n // 2, n - 1})


def alone(fw: Forward, row: int) -> tuple[Forward, list[int]]:
    """Batch row `row` of a forward as one plain forward of its own prompt: its ids, less the
    positions its attention mask pads, a mask over all of them, and no other tensor the batch was
    given (position ids), so that the model counts positions itself; and the batch positions it
    kept."""
    ids, mask = fw.kwargs["input_ids"], fw.kwargs.get("attention_mask")
    kept = list(range(ids.shape[1])) if mask is None else mask[row].nonzero().flatten().tolist()
    kwargs = {k: v for k, v in fw.kwargs.items() if not torch.is_tensor(v)}
    one = ids[row:row + 1, kept]
    return Forward({**kwargs, "input_ids": one, "attention_mask": torch.ones_like(one)}), kept


def decoded_alone(loop: list[Forward], row: int) -> tuple[list[Forward], list[int]]:
    """Batch row `row` of a decode loop as a loop of its own: its prefill alone (harness'
    `alone`) on a copy of the loop's empty cache, then each step's ids for the row, with a mask
    over every position decoded so far and no other tensor; and the prefill positions it kept."""
    first, kept = alone(loop[0], row)
    decoded = [Forward(first.kwargs, loop[0].cache_keyword, cache=loop[0].cache)]
    length = len(kept)
    for fw in loop[1:]:
        ids = fw.kwargs["input_ids"][row:row + 1]
        length += ids.shape[1]
        kwargs = {k: v for k, v in fw.kwargs.items() if not torch.is_tensor(v)}
        decoded.append(Forward({**kwargs, "input_ids": ids,
                                "attention_mask": torch.ones(1, length, dtype=torch.long)},
                               fw.cache_keyword, continues=True))
    return decoded, kept


def row_sites(sites: list[Site], forward: int, row: int, length: int,
              kept: list[int], to: int = 0) -> list[Site]:
    """The sites of `forward` that write `row`, moved to row 0 of forward `to` of its one-row
    replay and to its kept positions; a RunMismatch where one writes a padded position."""
    moved = []
    for s in sites:
        if s.forward != forward or row not in s.rows:
            continue
        positions = [p % length for p in s.positions]
        if any(p not in kept for p in positions):
            raise RunMismatch(f"forward {forward} row {row}: a write at positions "
                              f"{list(s.positions)} falls on the row's padding")
        at = s.rows.index(row)
        moved.append(Site(to, s.layer, (0,), tuple(kept.index(p) for p in positions),
                          s.value[at:at + 1], s.columns, s.block_input))
    return moved


def _loop_rows(model: Watched, recorded: Recorded, sites: list[Site], loop: list[int],
               rtol: float, atol: float) -> tuple[int, list[str]]:
    """The chosen rows of a loop's forwards (one forward without a cache) decoded alone with
    their writes: how many were, and the first forward of each that gives another output."""
    forwards = [recorded.forwards[g] for g in loop]
    batch, length = forwards[0].kwargs["input_ids"].shape
    rows, found = 0, []
    for r in chosen(batch):
        decoded, kept = decoded_alone(forwards, r)
        if length - 1 not in kept:
            continue  # right padding: the recording holds the final position's output only
        try:
            mine = [site for i, (g, fw) in enumerate(zip(loop, forwards)) for site in row_sites(
                sites, g, r, fw.kwargs["input_ids"].shape[1],
                kept if i == 0 else list(range(fw.kwargs["input_ids"].shape[1])), i)]
        except RunMismatch as mismatch:
            found.append(str(mismatch))
            continue
        rows += 1
        for g, ref in zip(loop, model.replay(decoded, mine)):
            got = recorded.heads[g]
            if got is None or not torch.allclose(got[r], ref.head[0], rtol=rtol, atol=atol):
                diff = "none made" if got is None else \
                    f"max abs diff {float((got[r] - ref.head[0]).abs().max()):.3g}"
                found.append(f"forward {g} row {r}: alone, with its writes, it gives another "
                             f"output ({diff})")
                break
    return rows, found


def check_rows(hf: nn.Module, run: Callable[[], Any],
               sites_for: Callable[[list[Reference]], list[Site]],
               within: bool = False) -> AloneRows:
    """Run the experiment once under harness.fire_once's hooks, resolve its declared sites, and
    re-run the chosen rows of each forward (the one row of a one-row forward) alone with their
    writes, a decode loop's rows decoded alone."""
    try:
        model, recorded, refs, sites = recorded_sites(hf, run, sites_for, within)
    except RunMismatch as mismatch:
        return AloneRows(0, 0, [str(mismatch)])
    dtype = refs[0].blocks[0].dtype
    rtol, atol = TOLERANCE.get(dtype, TOLERANCE[torch.bfloat16])
    mismatched, rows = [], 0
    forwards, owner = recorded.forwards, loops(recorded.forwards)
    for f, fw in enumerate(forwards):
        if fw.continues:
            if forwards[owner[f]].cache is None:
                mismatched.append(f"forward {f} continues a key-value cache no forward of the "
                                  f"run started: its rows are not re-run alone here")
            continue  # decoded with its loop
        loop = [f] if fw.cache is None else [g for g in range(f, len(owner)) if owner[g] == f]
        if any("input_ids" not in forwards[g].kwargs for g in loop):
            mismatched.append(f"forward {f} reads no ids (or its loop does): its rows are not "
                              f"re-run alone here")
            continue
        checked, found = _loop_rows(model, recorded, sites, loop, rtol, atol)
        rows += checked
        mismatched += found
    return AloneRows(len(forwards), rows, mismatched)


class RowsRecord(TypedDict):
    """What a rows-alone anchor judges (`readout`)."""

    rows_rerun: bool
    mismatched: list[str]


def readout(result: AloneRows) -> RowsRecord:
    """Whether any row was re-run alone, and the first mismatches (how many forwards and rows
    depend on the mode's batching, so are left out)."""
    return {"rows_rerun": result.rows > 0, "mismatched": result.mismatched[:5]}


RULE = StandardAnchor({"rows_rerun": True, "mismatched": []}, readout=readout, headline=(
    "rows re-run alone: {rows_rerun}; mismatched: {mismatched}"))
claim_fields = RULE.fields  # a rows-alone anchor's fields: claim_fields(statement, provenance)
