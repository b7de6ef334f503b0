"""What seed 003's readback anchors record (Readback), and how a row re-run alone is compared
with what a batched run recorded for it (`answered`, within a near tie): shared by the sweeps',
the predictions' and §7's readbacks."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import torch

from harness.sources.lookback.runner import LookbackRunner

TOP = 8  # the solo run's top tokens searched for a recorded answer within a near tie

TIE_REASON = ("a row re-run alone meets other kernels than in its batch: float32 moves a logit "
              "by about 1e-6 (1e-5 of the top logit is allowed), bf16 by a unit or two of its "
              "8 significant bits (2^-5 of the top logit is allowed); a recorded answer that is "
              "not the solo run's top token reads back if its logit is that close to the top")


def tie_margin(top: float, dtype: torch.dtype) -> float:
    """How far below the solo run's top logit a recorded answer's logit may be (TIE_REASON)."""
    return (1e-5 if dtype == torch.float32 else 2 ** -5) * max(1.0, abs(top))


@dataclass
class Readback:
    """One study's sweeps read back: the sweeps, the coverage gaps, the cells re-run alone, how
    many read back only within a near tie, and the mismatches (cells and curves)."""

    sweeps: list[str]
    gaps: list[str]
    cells: list[str] = field(default_factory=list)
    ties: int = 0
    mismatched: list[str] = field(default_factory=list)


def spread(xs: Sequence[int]) -> list[int]:
    """The first, middle and last of `xs`, in order, without repeats."""
    xs = list(xs)
    return sorted({xs[0], xs[len(xs) // 2], xs[-1]}) if xs else []


def answered(runner: LookbackRunner, found: Readback, what: str, by: str, recorded: str,
             logits: torch.Tensor | None) -> None:
    """The answer `by` (a batched run) recorded against the top tokens of the same row run alone
    (`logits`, its final logits), within a near tie (TIE_REASON)."""
    if logits is None:
        found.mismatched.append(f"{what}: the row alone gave no answer")
        return
    top = logits.float().topk(min(TOP, logits.shape[-1]))
    answers, values = runner.decode(top.indices), top.values.tolist()
    if answers[0] == recorded:
        return
    margin = tie_margin(values[0], runner.model.hf.dtype)
    if any(a == recorded and values[0] - v <= margin for a, v in zip(answers, values)):
        found.ties += 1
        return
    found.mismatched.append(f"{what}: {by} recorded {recorded!r}, the row alone answers "
                            f"{answers[0]!r}")
