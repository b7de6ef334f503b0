"""The benchmark's rounds: every side once per round in a rotating order after a warm-up, and the
ratios' median and spread (issue 50)."""
from __future__ import annotations

import pytest

from harness.sources.cot.bench.rounds import Ratio, Rounds, ratio, run_rounds


def test_each_side_runs_once_to_warm_up_then_once_a_round_in_a_rotating_order():
    calls: list[str] = []
    sides = {name: (lambda name=name: calls.append(name)) for name in "abc"}
    found = run_rounds(sides, 3)
    assert calls == list("abc") + list("abc") + list("bca") + list("cab")
    assert {k: len(v) for k, v in found.seconds.items()} == {"a": 3, "b": 3, "c": 3}


def test_a_side_whose_answers_move_between_rounds_is_named():
    counter = iter(range(10))
    found = run_rounds({"steady": lambda: 1, "moving": lambda: next(counter)}, 2)
    assert found.changed == ["moving"]


def test_the_ratio_is_taken_round_by_round():
    found = Rounds({"a": [2.0, 3.0, 9.0], "b": [1.0, 1.0, 3.0]})
    assert ratio(found, "a", "b").per_round == (2.0, 3.0, 3.0)


def test_the_spread_is_half_the_range_over_the_median():
    r = Ratio((0.9, 1.0, 1.2))
    assert r.median == 1.0 and r.spread == pytest.approx(0.15)
    assert r.as_record() == {"median": 1.0, "spread": 0.15, "per_round": [0.9, 1.0, 1.2]}
