"""Seed 003 §6: the answer lookback, the final token's residual copied across stories per layer."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from harness.progress import progress
from harness.sources.lookback.interchange import interchange, swept_layers
from harness.sources.lookback.runner import LookbackRunner, score
from harness.sources.lookback.task import Counterfactual


@dataclass
class AnswerSweep:
    """§6: per patched layer, the fractions answering clean, the pointer target and the payload
    target; the layers it patched, in the order of its curves, the positions it read and wrote,
    and each layer's answers, row by row (what the readback anchors read)."""

    layers: list[int]
    clean: list[float]
    pointer: list[float]
    payload: list[float]
    n: int
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    preds: list[list[str]] = field(default_factory=list)  # [layer][row]


def answer_sweep(runner: LookbackRunner, rows: list[Counterfactual],
                 layers: Sequence[int] | None = None) -> AnswerSweep:
    """§6: the counterfactual's final-token residual copied into the clean run at each swept
    layer; the layers are recorded as they are patched."""
    clean, pointer, payload, covered, answers = [], [], [], [], []
    src, dst = [-1], [-1]  # the final token of each prompt
    chosen = swept_layers(runner, layers)
    patched = interchange(runner, rows, chosen, src, dst, bs=runner.sizes.answer_batch)
    for layer, preds in progress(zip(chosen, patched), "lookback §6 answer"):
        clean.append(score(preds, rows, "clean_ans"))
        pointer.append(score(preds, rows, "target"))
        payload.append(score(preds, rows, "payload"))
        covered.append(layer)
        answers.append(preds)
    return AnswerSweep(covered, clean, pointer, payload, len(rows), src, dst, answers)
