"""Seed 000 §1's decode rows read back: each of a few baseline rows, decoded in a batch in fast
mode (alone in faithful mode), must be what one plain forward of its own prompt predicts, token
by token (teacher-forced). A row mapped back to another prompt, or cut at the wrong column, is
another prompt's or the prompt's own text, which that forward does not predict."""
from __future__ import annotations

from dataclasses import dataclass

import torch

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


def chosen(traces: list[Trace]) -> list[Trace]:
    """The shortest, the median and the longest prompt: the most and least left padding."""
    by_length = sorted(traces, key=lambda t: (len(t.pid), t.idx))
    picks = {by_length[0].idx: by_length[0], by_length[len(by_length) // 2].idx:
             by_length[len(by_length) // 2], by_length[-1].idx: by_length[-1]}
    return [picks[i] for i in sorted(picks)]


def first_unpredicted(runner: CotRunner, trace: Trace) -> int | None:
    """The first of the row's checked tokens that one plain forward of the prompt and the row's
    tokens before it does not predict (within TIE of its best logit); None where all are."""
    hf = runner.model.local()
    row = trace.gen[:TOKENS]
    ids = torch.tensor([trace.pid + row], device=next(hf.parameters()).device)
    with torch.no_grad():
        logits = hf(ids).logits[0, len(trace.pid) - 1:len(trace.pid) - 1 + len(row)].float()
    tie = TIE.get(runner.dtype, TIE[torch.bfloat16])
    for k, token in enumerate(row):
        if logits[k, token] < logits[k].max() - tie:
            return k
    return None


def batched_rows(runner: CotRunner, traces: list[Trace]) -> BatchedRows:
    """§1: a few baseline rows, each against one plain forward of its own prompt; scripted rows
    (the rehearsal's forced traces) are not this model's decode and are left out."""
    decoded = [t for t in traces if not t.scripted and t.gen]
    rows, misread = chosen(decoded) if decoded else [], []
    for t in rows:
        k = first_unpredicted(runner, t)
        if k is not None:
            misread.append(f"problem {t.idx}: token {k} ({t.gen[k]}) is not what its prompt "
                           f"predicts")
    return BatchedRows([t.idx for t in rows], sum(len(t.gen[:TOKENS]) for t in rows), misread)
