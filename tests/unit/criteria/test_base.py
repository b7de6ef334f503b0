"""A conjunction of criteria: it holds when every part does, and shows and describes each part."""
from __future__ import annotations

import pytest

from harness.criteria import AtMost, Check, Exact, all_of

BOTH = all_of(Exact("a"), AtMost("b"))


@pytest.mark.parametrize("a, b, ok", [(1, 2, True), (0, 2, False), (1, 3, False), (0, 3, False)])
def test_a_conjunction_holds_only_when_every_part_does(a, b, ok):
    assert BOTH.judge({"a": a, "b": b}, {"a": 1, "b": 2}).ok is ok


def test_a_conjunction_shows_every_part_in_order():
    check = BOTH.judge({"a": 1, "b": 3}, {"a": 1, "b": 2})
    assert check == Check(False, "a: measured 1, published 1 | b: measured 3, bound 2")


def test_a_conjunction_describes_every_part_in_order():
    assert BOTH.describe() == "a equals the published value; b at most the published bound"
