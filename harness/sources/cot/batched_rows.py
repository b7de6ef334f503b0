"""Seed 000 §1's decode rows read back: each of a few baseline rows, decoded in a batch in fast
mode (alone in faithful mode), must be what one plain forward of its own prompt predicts, token
by token (teacher-forced), with the row's §6/§7 edit written by a plain forward hook where it has
one. A row mapped back to another prompt, or cut at the wrong column, is another prompt's or the
prompt's own text, which that forward does not predict."""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import torch

from harness.replay import block_output, hooks
from harness.sources.cot.rows import Row, Write
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.traces import Trace

TOKENS = 16  # each row's first tokens that are checked

# How far below the forward's best logit a row's token may be: a decode step of the generate
# loop (its key-value cache, its batch) and one prefill of the same prefix sum in another order.
# float32 moves a logit by about 1e-6; bf16 keeps 8 significant bits, about 0.1 at a logit of 20.
TIE = {torch.float32: 1e-4, torch.bfloat16: 0.5}
TIE_REASON = ("a decode step and a plain prefill of the same prefix sum in another order: about "
              "1e-6 of a logit in float32 (allowed 1e-4), about 0.1 in bf16 (allowed 0.5)")


@dataclass
class BatchedRows:
    """Which baseline rows were read back, how many tokens, and each misread row's first
    unpredicted token."""

    rows: list[int]
    tokens: int
    misread: list[str]


def chosen(lengths: list[int]) -> list[int]:
    """§1: the rows (indices) of the shortest, the median and the longest prefix: the most and least
    left padding."""
    by_length = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    return sorted({by_length[0], by_length[len(by_length) // 2], by_length[-1]})


@contextmanager
def written(hf: Any, write: Write | None, start: int, length: int) -> Iterator[None]:
    """A plain forward hook writing a row's §6/§7 edit where its decode loop did: step s's vector
    at position `start + s` (step 0 is the prefill's last position), within `length` positions."""
    if write is None:
        yield
        return
    steps = range(write.first, min(write.first + len(write.vectors), length - start))

    def hook(module: Any, args: Any, output: Any) -> None:
        h = block_output(output)
        for s in steps:
            v = write.vectors[s - write.first].to(device=h.device, dtype=h.dtype)
            h[0, start + s] = h[0, start + s] + v if write.added else v

    with hooks([hf.model.layers[write.layer].register_forward_hook(hook)]):
        yield


def first_unpredicted(runner: CotRunner, row: Row, tokens: int | None = TOKENS) -> int | None:
    """The first of the row's checked tokens (its first `tokens`, or all) that one plain forward
    of its prefix and its tokens before it, edited as the row was, does not predict (within TIE
    of its best logit); None where all are."""
    hf = runner.model.local()
    checked = row.out if tokens is None else row.out[:tokens]
    ids = torch.tensor([row.prefix + checked], device=next(hf.parameters()).device)
    start = len(row.prefix) - 1
    with torch.no_grad(), written(hf, row.write, start, ids.shape[1]):
        logits = hf(ids).logits[0, start:start + len(checked)].float()
    tie = TIE.get(runner.dtype, TIE[torch.bfloat16])
    for k, token in enumerate(checked):
        if logits[k, token] < logits[k].max() - tie:
            return k
    return None


def batched_rows(runner: CotRunner, traces: list[Trace]) -> BatchedRows:
    """§1: a few baseline rows, each against one plain forward of its own prompt; scripted rows
    (the rehearsal's forced traces) are not this model's decode and are left out."""
    decoded = [t for t in traces if not t.scripted and t.gen]
    rows = [decoded[i] for i in chosen([len(t.pid) for t in decoded])] if decoded else []
    misread = []
    for t in rows:
        k = first_unpredicted(runner, Row(t.pid, t.gen))
        if k is not None:
            misread.append(f"problem {t.idx}: token {k} ({t.gen[k]}) is not what its prompt "
                           f"predicts")
    return BatchedRows([t.idx for t in rows], sum(len(t.gen[:TOKENS]) for t in rows), misread)
