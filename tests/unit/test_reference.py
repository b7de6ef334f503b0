"""harness.reference: study and reference values compared row by row; each kind of mismatch is
found and named, and what matches holds."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.reference import Agreement, Comparison, compare, readout, sampled


def test_equal_rows_agree():
    found = compare("sweep", {0: [1.0, 2.0], 1: {"a": 3, "b": "x"}}, {0: [1.0, 2.0], 1: {"a": 3, "b": "x"}})
    assert found.mismatches == [] and found.values == 4 and found.max_abs_diff == 0.0


def test_a_number_one_ulp_off_fails_an_exact_comparison():
    found = compare("sweep", {0: [1.0]}, {0: [math.nextafter(1.0, 2.0)]})
    assert found.mismatches and found.max_abs_diff > 0


def test_a_difference_within_the_declared_tolerance_holds():
    found = compare("sweep", {0: [1.0]}, {0: [1.0 + 1e-6]}, Agreement(1e-5, why="bf16 order"))
    assert found.mismatches == [] and 0 < found.max_abs_diff <= 1e-5


def test_a_difference_over_the_declared_tolerance_fails():
    found = compare("sweep", {0: [1.0]}, {0: [1.0 + 1e-4]}, Agreement(1e-5, why="bf16 order"))
    assert found.mismatches == ["0[0]: study 1.0, reference 1.0001"]


def test_a_row_only_one_side_has_is_a_mismatch():
    assert compare("s", {0: 1.0}, {0: 1.0, 1: 2.0}).mismatches == ["row 1: only the reference has it"]
    assert compare("s", {0: 1.0, 1: 2.0}, {0: 1.0}).mismatches == ["row 1: only the study has it"]


def test_a_value_of_another_shape_is_a_mismatch():
    assert compare("s", {0: [1.0]}, {0: [1.0, 2.0]}).mismatches


def test_a_bool_is_not_equal_to_its_number():
    assert compare("s", {0: True}, {0: 1}).mismatches


def test_nan_agrees_only_with_nan():
    assert compare("s", {0: math.nan}, {0: math.nan}).mismatches == []
    assert compare("s", {0: math.nan}, {0: 0.0}).mismatches
    assert compare("s", {0: 0.0}, {0: math.nan}).mismatches


def test_infinity_agrees_only_with_itself_under_any_tolerance():
    loose = Agreement(1e9, why="test")
    assert compare("s", {0: math.inf}, {0: math.inf}, loose).mismatches == []
    assert compare("s", {0: math.inf}, {0: 1.0}, loose).mismatches
    assert compare("s", {0: -math.inf}, {0: math.inf}, loose).mismatches


def test_no_row_compared_is_no_evidence():
    assert compare("s", {}, {}).mismatches


def test_a_tolerance_needs_its_reason():
    with pytest.raises(ValueError):
        Agreement(1e-3)
    with pytest.raises(ValueError):
        Agreement(-1.0, why="x")


def test_several_studies_are_measured_together_naming_each():
    ok, bad = compare("a", {0: 1.0}, {0: 1.0}), compare("b", {0: 1.0}, {0: 2.0})
    record = readout({"a": ok, "b": bad})
    assert record["agrees"] is False and record["rows"] == ["a:0", "b:0"]
    assert record["mismatches"] == ["b: 0: study 1.0, reference 2.0"]
    assert readout(ok)["agrees"] is True


def test_an_empty_comparison_does_not_agree():
    assert readout(Comparison("a", []))["agrees"] is False


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=20))
def test_sampled_rows_are_in_range_and_include_both_ends(n, every):
    rows = sampled(n, every)
    assert all(0 <= r < n for r in rows) and rows == sorted(set(rows))
    if n:
        assert rows[0] == 0 and rows[-1] == n - 1
    assert len(rows) == (n if n <= every else len({0, n // 2, n - 1}))
