"""Seed 000, §7 step 2: each pair continued to the cap with no patch, the donor patch and a
matched-norm random control at the screen's best layer, and the rates per condition."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import torch

from harness.progress import progress
from harness.sources.cot.patching import Pair, runs_with_patch, written_number
from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import after_close, count_value, parse_answer


def random_control(p: Pair, layer: int, seed: int) -> torch.Tensor:
    """§7: own residual plus a seeded random vector with the donor-minus-own norm per step."""
    g = torch.Generator(device=p.self_h[layer].device).manual_seed(seed)
    donor, own = p.donor_h[layer].float(), p.self_h[layer].float()
    eps = torch.randn(own.shape, generator=g, device=own.device)
    eps = eps / eps.norm(dim=-1, keepdim=True) * (donor - own).norm(dim=-1, keepdim=True)
    return (own + eps).to(p.donor_h[layer].dtype)


@dataclass
class Continuation:
    """§7 step 2: one full continuation under one condition."""

    condition: str
    wrote: int | None
    says_donor: bool
    answer: int | None
    true: int
    donor_answer: int
    recipient_product: int


CONDITIONS = ("no patch", "donor patch", "random (matched norm)")


class ConditionRates(TypedDict):
    """§7 step 2: one condition's rates over all pairs (Continuations.rates)."""

    n: int
    different_product: float
    donor_product: float
    answer_true: float
    answer_donor_faithful: float
    unparseable: int


@dataclass
class Continuations:
    """§7 step 2: the rates per condition, over all pairs."""

    layer: int
    runs: list[Continuation]
    rows: dict[str, list[Row]]  # each condition's rows, pair by pair

    def rates(self, condition: str) -> ConditionRates:
        g = [r for r in self.runs if r.condition == condition]
        n = len(g)
        return {
            "n": n,
            "different_product": sum(r.wrote != r.recipient_product for r in g) / n,
            "donor_product": sum(r.says_donor for r in g) / n,
            "answer_true": sum(r.answer == r.true for r in g) / n,
            "answer_donor_faithful": sum(r.answer == r.donor_answer for r in g) / n,
            "unparseable": sum(r.answer is None for r in g),
        }


def full_continuations(runner: CotRunner, ps: list[Pair], layer: int) -> Continuations:
    """§7 step 2: no patch, the donor patch and the random control, each continued to the cap."""
    vectors = {"no patch": None, "donor patch": [p.donor_h[layer] for p in ps],
               "random (matched norm)": [random_control(p, layer, seed=i) for i, p in enumerate(ps)]}
    rows = {name: runs_with_patch(runner, [p.prefix for p in ps], layer, vectors[name],
                                  runner.sizes.continuation_cap)
            for name in progress(CONDITIONS, "cot §7 continuations")}
    runs = []
    for i, p in enumerate(ps):
        for name in CONDITIONS:
            row = rows[name][i]
            text = runner.decode(row.out)
            runs.append(Continuation(
                condition=name, wrote=written_number(runner, row),
                says_donor=count_value(text, p.donor_product) > 0,
                answer=parse_answer(after_close(text)), true=p.recipient.true,
                donor_answer=p.donor_product + p.recipient.c, recipient_product=p.recipient.prod))
    return Continuations(layer, runs, rows)
