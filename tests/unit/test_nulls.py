"""harness.nulls: a finding's declared null, resolved against what was measured, and whether its
criterion accepts the null as well (issue 47)."""
from __future__ import annotations

import pytest

from harness.criteria import Binomial, Exact
from harness.nulls import AsMeasured, NoNull, Null, Repeated, evidence, null_check


def test_a_null_sets_the_values_no_effect_gives():
    assert Null({"flipped": 0}, why="w").resolved({"flipped": 7, "n": 20}) == {"flipped": 0}


def test_a_null_reads_a_baseline_off_the_measured_values():
    null = Null({"after": AsMeasured("before")}, why="w")
    assert null.resolved({"after": 0.9, "before": 0.4}) == {"after": 0.4}


def test_a_repeated_null_is_as_long_as_the_measured_curve():
    null = Null({"curve": Repeated(AsMeasured("final"), like="curve")}, why="w")
    assert null.resolved({"curve": [0.1, 0.5, 0.9], "final": 0.9}) == {"curve": [0.9, 0.9, 0.9]}


def test_a_null_without_values_or_reason_is_refused():
    with pytest.raises(ValueError):
        Null({}, why="w")
    with pytest.raises(ValueError):
        Null({"k": 0}, why="")
    with pytest.raises(ValueError):
        NoNull("")


def test_a_refused_null_says_what_a_null_needs():
    with pytest.raises(ValueError, match="^a null names the values no effect gives, and why$"):
        Null({}, why="w")


def test_a_refused_no_null_says_a_reason_is_needed():
    with pytest.raises(ValueError, match="^a finding without a null says why$"):
        NoNull("")


def test_a_criterion_that_rejects_the_null_says_so():
    found = null_check(Binomial("k"), {"k": 20, "n": 20}, {"k": 20, "n": 20},
                       Null({"k": 0}, why="no skill"))
    assert found["accepts_null"] is False and found["null"] == {"k": 0}
    assert found["detail"].startswith("k = 0 (no skill): k: measured 0/20")


def test_a_criterion_that_accepts_the_null_says_so():
    found = null_check(Binomial("k"), {"k": 2, "n": 20}, {"k": 2, "n": 20},
                       Null({"k": 3}, why="chance picks 3 of 20"))
    assert found["accepts_null"] is True


def test_no_null_is_neither_accepted_nor_rejected_and_says_why():
    found = null_check(Exact("v"), {"v": 1}, {"v": 1}, NoNull("the finding is an absence"))
    assert found == {"accepts_null": None, "null": None,
                     "detail": "no null: the finding is an absence"}


def test_an_undeclared_null_gives_no_check():
    assert null_check(Exact("v"), {"v": 1}, {"v": 1}, None) is None


def test_a_measurement_publishing_nothing_has_no_evidence():
    assert evidence(Exact("v"), {}, {"v": 1}, Null({"v": 0}, why="w")) == ([], None)


def test_evidence_holds_each_parts_sensitivity_and_the_null_check():
    sens, check = evidence(Binomial("k"), {"k": 20, "n": 20}, {"k": 19, "n": 20},
                           Null({"k": 0}, why="w"))
    assert [s["key"] for s in sens] == ["k/n"] and sens[0]["n"] == 20
    assert "detects a fall of" in sens[0]["words"] and check["accepts_null"] is False


def test_the_null_is_described_with_its_reason():
    null = Null({"a": AsMeasured("b"), "c": Repeated(0, like="c")}, why="nothing moves")
    assert null.describe() == "a = the measured b, c = 0 at every point (nothing moves)"


def test_a_measured_interval_moves_with_the_value_the_null_replaces():
    from harness.criteria import CoversPublished, all_of

    criterion = all_of(CoversPublished("p", "p_ci"))
    measured = {"p": 0.8, "p_ci": [0.7, 0.9]}
    found = null_check(criterion, {"p": 0.8}, measured, Null({"p": 0.0}, why="no effect"))
    assert found["accepts_null"] is False  # the interval moved to [-0.1, 0.1] excludes 0.8
    near = null_check(criterion, {"p": 0.8}, measured, Null({"p": 0.75}, why="small"))
    assert near["accepts_null"] is True


def test_measured_values_the_criterion_cannot_judge_give_an_unjudged_null_check():
    from harness.criteria import CoversPublished, Exact, all_of

    criterion = all_of(Exact("block"), CoversPublished("p", "p_ci"))
    sens, check = evidence(criterion, {"block": 31, "p": 0.6}, {"block": None, "p": None,
                                                                 "p_ci": None},
                           Null({"block": None}, why="no block chosen"))
    assert (check["accepts_null"], check["null"]) == (None, None) and set(check) == {
        "accepts_null", "null", "detail"}
    assert check["detail"].startswith("not judged: the measured values cannot be (TypeError: ")
    assert sens[1]["how"] == "known after a run: the measured interval's width sets it"


def test_the_moved_interval_keeps_its_width():
    from harness.criteria import CoversPublished

    measured = {"p": 0.5, "p_ci": [0.25, 0.75]}
    found = null_check(CoversPublished("p", "p_ci"), {"p": 0.3}, measured,
                       Null({"p": 0.125}, why="small"))
    assert found["accepts_null"] is True and found["detail"].endswith("interval [-0.125, 0.375]")


def test_an_interval_in_a_nested_conjunction_moves_too():
    from harness.criteria import CoversPublished, all_of

    criterion = all_of(CoversPublished("a", "a_ci"), all_of(CoversPublished("b", "b_ci")))
    measured = {"a": 0.5, "a_ci": [0.25, 0.75], "b": 0.5, "b_ci": [0.25, 0.75]}
    found = null_check(criterion, {"a": 0.0, "b": 0.0}, measured,
                       Null({"a": 0.0, "b": 0.0}, why="no effect"))
    assert found["accepts_null"] is True  # both intervals moved onto 0: [-0.25, 0.25]
