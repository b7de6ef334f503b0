"""Issue 36's batched-row rule, derived for any declared intervention (issue 46 §2): a few rows
of each forward the experiment made (the first, middle and last of a batch), each run as one plain forward of its own prompt
through the transformers model (its padding dropped, its own declared writes made by plain
hooks), give the output they gave in the batch, within the kernels' batch-size noise. A batch
that moves its rows (positions counted over the padding, a mask hiding a token) fails."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypedDict

import torch
from torch import nn

from harness.compared_writes import recorded_sites
from harness.replay import Forward, Reference, RunMismatch, Site
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


def row_sites(sites: list[Site], forward: int, row: int, length: int,
              kept: list[int]) -> list[Site]:
    """The sites of `forward` that write `row`, moved to row 0 of its one-row forward and to its
    kept positions; a RunMismatch where one writes a padded position."""
    moved = []
    for s in sites:
        if s.forward != forward or row not in s.rows:
            continue
        positions = [p % length for p in s.positions]
        if any(p not in kept for p in positions):
            raise RunMismatch(f"forward {forward} row {row}: a write at positions "
                              f"{list(s.positions)} falls on the row's padding")
        at = s.rows.index(row)
        moved.append(Site(0, s.layer, (0,), tuple(kept.index(p) for p in positions),
                          s.value[at:at + 1], s.columns, s.block_input))
    return moved


def check_rows(hf: nn.Module, run: Callable[[], Any],
               sites_for: Callable[[list[Reference]], list[Site]],
               within: bool = False) -> AloneRows:
    """Run the experiment once under harness.fire_once's hooks, resolve its declared sites, and
    re-run the chosen rows of each forward (the one row of a one-row forward) alone with their
    writes."""
    try:
        model, recorded, refs, sites = recorded_sites(hf, run, sites_for, within)
    except RunMismatch as mismatch:
        return AloneRows(0, 0, [str(mismatch)])
    dtype = refs[0].blocks[0].dtype
    rtol, atol = TOLERANCE.get(dtype, TOLERANCE[torch.bfloat16])
    mismatched, rows = [], 0
    for f, fw in enumerate(recorded.forwards):
        got = recorded.heads[f]
        if fw.cache is not None or fw.continues or "input_ids" not in fw.kwargs:
            mismatched.append(f"forward {f} reads a key-value cache or no ids: its rows are "
                              f"not re-run alone here")
            continue
        for r in chosen(fw.kwargs["input_ids"].shape[0]):
            one, kept = alone(fw, r)
            if fw.kwargs["input_ids"].shape[1] - 1 not in kept:
                continue  # right padding: the recording holds the final position's output only
            try:
                mine = row_sites(sites, f, r, fw.kwargs["input_ids"].shape[1], kept)
            except RunMismatch as mismatch:
                mismatched.append(str(mismatch))
                continue
            ref = model.replay([one], mine)[0].head[0]
            rows += 1
            if got is None or not torch.allclose(got[r], ref, rtol=rtol, atol=atol):
                diff = "none made" if got is None else \
                    f"max abs diff {float((got[r] - ref).abs().max()):.3g}"
                mismatched.append(f"forward {f} row {r}: alone, with its writes, it gives "
                                  f"another output ({diff})")
    return AloneRows(len(recorded.forwards), rows, mismatched)


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
