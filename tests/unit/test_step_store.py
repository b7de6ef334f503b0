"""The step store computes a step once and hands the stored value to every later caller."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.step_store import StepStore


@dataclass
class Result:
    rate: float
    logits: torch.Tensor


def test_a_stored_step_is_computed_once(tmp_path):
    calls = []

    def compute(n: int) -> Result:
        calls.append(n)
        return Result(0.5, torch.arange(n, dtype=torch.float32))

    first = StepStore(tmp_path).shared("lookback", "reversed", compute)(3)
    again = StepStore(tmp_path).shared("lookback", "reversed", compute)(3)
    assert calls == [3]
    assert again.rate == first.rate and torch.equal(again.logits, first.logits)


def test_the_store_holds_only_finished_steps(tmp_path):
    store = StepStore(tmp_path)
    assert not store.holds("cot", "baseline")
    store.shared("cot", "baseline", lambda: [1, 2])()
    assert store.holds("cot", "baseline")
    assert sorted(p.name for p in (tmp_path / "cot").iterdir()) == ["baseline.pt",
                                                                    "baseline.pt.lock"]
