"""The criteria without uncertainty: each at the edge of what it accepts, on either side, the
detail it shows, and its description."""
from __future__ import annotations

import math

import pytest

from harness.criteria import (AtMost, Check, Every, Exact, Length, NoneFailed, NoneOf, Recorded,
                              Same)


def test_exact_shows_both_values_as_written():
    check = Exact("site").judge({"site": "31.7"}, {"site": "31.7"})
    assert check == Check(True, "site: measured '31.7', published '31.7'")


def test_exact_rejects_the_nearest_other_value():
    assert not Exact("x").judge({"x": math.nextafter(0.5, 1.0)}, {"x": 0.5}).ok


@pytest.mark.parametrize("slack", [0, 1, 3])
def test_every_accepts_a_count_short_by_its_slack(slack):
    assert Every("k", slack=slack).judge({"k": 20 - slack, "n": 20}, {}).ok


@pytest.mark.parametrize("slack", [0, 1, 3])
def test_every_rejects_a_count_short_by_one_more_than_its_slack(slack):
    assert not Every("k", slack=slack).judge({"k": 19 - slack, "n": 20}, {}).ok


def test_every_rejects_no_cases_even_with_slack():
    assert not Every("k", slack=1).judge({"k": 0, "n": 0}, {}).ok


def test_every_accepts_a_single_case_its_slack_allows_to_miss():
    assert Every("k", slack=1).judge({"k": 0, "n": 1}, {}).ok


def test_every_shows_the_count():
    assert Every("k").judge({"k": 20, "n": 20}, {}) == Check(True, "k: 20/20")


def test_every_shows_the_count_and_its_slack():
    check = Every("correct", slack=1).judge({"correct": 18, "n": 20}, {})
    assert check == Check(False, "correct: 18/20, 1 may fall short")


def test_same_shows_both_measured_values():
    check = Same("a", "b").judge({"a": 0.5, "b": 0.25}, {})
    assert check == Check(False, "a 0.5, b 0.25")


def test_length_shows_the_list_and_its_length():
    check = Length("ids", 1).judge({"ids": [7, 8]}, {})
    assert check == Check(False, "ids: [7, 8], 2 item(s)")


def test_at_most_accepts_the_bound_itself():
    assert AtMost("d").judge({"d": 0.001}, {"d": 0.001}) == Check(True, "d: measured 0.001, "
                                                                      "bound 0.001")


def test_at_most_accepts_anything_below_the_bound():
    assert AtMost("d").judge({"d": -1.0}, {"d": 0.001}).ok


def test_at_most_rejects_the_nearest_value_above_the_bound():
    assert not AtMost("d").judge({"d": math.nextafter(0.001, 1.0)}, {"d": 0.001}).ok


def test_none_failed_shows_the_count_checked():
    check = NoneFailed().judge(NoneFailed.counts([], 5), {})
    assert check == Check(True, "failed: 0 of 5 checked")


def test_none_failed_shows_the_first_failures():
    check = NoneFailed().judge(NoneFailed.counts(["a", "b"], 5), {})
    assert check == Check(False, "failed: 2 of 5 checked, first ['a', 'b']")


def test_none_failed_without_names_shows_the_count_alone():
    check = NoneFailed("misread", names=None, of="tokens").judge({"misread": 2, "tokens": 9}, {})
    assert check == Check(False, "misread: 2 of 9 tokens")


def test_none_of_shows_what_failed_of_how_many():
    check = NoneOf("failing", of="n").judge({"failing": ["p3"], "n": 20}, {})
    assert check == Check(False, "failing: ['p3'] of 20 n")


@pytest.mark.parametrize("cases", [("seed",), {"seed": 1}, ["seed"]])
def test_none_of_counts_a_measured_collection(cases):
    check = NoneOf("failing", of="pairs").judge({"failing": [], "pairs": cases}, {})
    assert check == Check(True, "failing: [] of 1 pairs")


def test_recorded_holds_whatever_was_measured():
    assert Recorded().judge({}, {}) == Check(True, "recorded")


@pytest.mark.parametrize("criterion, text", [
    (Exact("a"), "a equals the published value"),
    (Every("k"), "k counts all n (n > 0)"),
    (Every("k", "m", slack=1), "k counts all but at most 1 of m (n > 0)"),
    (Same("a", "b"), "a equals b"),
    (Length("ids", 1), "ids has 1 item(s)"),
    (AtMost("d"), "d at most the published bound"),
    (NoneFailed(), "failed is 0 of at least one checked"),
    (NoneOf("failing", "n"), "failing is empty, of at least one n"),
    (Recorded(), "no published value: recorded and pinned by snapshot only")])
def test_the_description_names_the_keys(criterion, text):
    assert criterion.describe() == text
