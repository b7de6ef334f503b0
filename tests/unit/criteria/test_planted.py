"""The known-answer criteria: each at the edge of what it accepts, on either side, the detail it
shows, its description, and the checks that judge an organism's studies against its manifest."""
from __future__ import annotations

import math

import pytest

from harness.criteria import Check, FittedNotRandom, IsPlanted, KnownAnswer, StepAt, Window
from harness.criteria.planted import known_answer_checks

UP, DOWN = math.inf, -math.inf


def test_a_step_exactly_at_low_and_high_is_accepted():
    assert StepAt("curve", at="from").judge({"curve": [0.1, 0.1, 0.9, 0.9]}, {"from": 2}).ok


@pytest.mark.parametrize("curve", [[math.nextafter(0.1, UP), 0.1, 0.9, 0.9],
                                   [0.1, 0.1, 0.9, math.nextafter(0.9, DOWN)]])
def test_a_step_just_past_low_or_high_is_rejected(curve):
    assert not StepAt("curve", at="from").judge({"curve": curve}, {"from": 2}).ok


def test_a_step_at_the_first_layer_needs_only_high_values():
    assert StepAt("curve", at="from").judge({"curve": [0.9, 1.0]}, {"from": 0}).ok


def test_a_step_past_the_last_layer_is_missed():
    assert not StepAt("curve", at="from").judge({"curve": [0.0, 0.0]}, {"from": 2}).ok


def test_a_step_shows_the_curve_to_three_places():
    check = StepAt("curve", at="from").judge({"curve": [0.0, 0.98765, 0.12345]}, {"from": 1})
    assert check == Check(False, "curve [0.0, 0.988, 0.123], step at layer 1")


def test_a_window_exactly_at_low_and_high_is_accepted():
    curve = [0.1, 0.9, 0.9, 0.1]
    assert Window("curve", within="layers").judge({"curve": curve}, {"layers": [1, 2]}).ok


@pytest.mark.parametrize("curve", [[math.nextafter(0.1, UP), 0.9, 0.9, 0.1],
                                   [0.1, math.nextafter(0.9, DOWN), 0.9, 0.1],
                                   [0.1, 0.9, math.nextafter(0.9, DOWN), 0.1],
                                   [0.1, 0.9, 0.9, math.nextafter(0.1, UP)]])
def test_a_window_just_past_low_or_high_on_either_side_is_rejected(curve):
    assert not Window("curve", within="layers").judge({"curve": curve}, {"layers": [1, 2]}).ok


def test_a_window_ending_at_the_last_layer_is_accepted():
    assert Window("curve", within="layers").judge({"curve": [0.0, 1.0]}, {"layers": [1, 1]}).ok


def test_a_window_shows_the_curve_and_its_layers():
    check = Window("curve", within="layers").judge({"curve": [0.0, 0.98765]}, {"layers": [1, 1]})
    assert check == Check(True, "curve [0.0, 0.988], planted at layers 1-1")


def low_rank(fitted: list[float], random: list[float], directions: int = 16) -> dict:
    return {"ranks": [1, 2, 4, 8], "fitted": fitted, "random": random, "directions": directions}


def test_fitted_and_random_exactly_at_high_and_low_are_accepted():
    measured = low_rank([0.0, 0.9, 0.9, 0.9], [0.1, 0.1, 0.1, 1.0])
    assert FittedNotRandom("rank").judge(measured, {"rank": 2}).ok


@pytest.mark.parametrize("fitted, random", [
    ([0.0, 0.9, math.nextafter(0.9, DOWN), 0.9], [0.1, 0.1, 0.1, 1.0]),
    ([0.0, 0.9, 0.9, 0.9], [0.1, 0.1, math.nextafter(0.1, UP), 1.0])])
def test_fitted_or_random_just_past_high_or_low_is_rejected(fitted, random):
    assert not FittedNotRandom("rank").judge(low_rank(fitted, random), {"rank": 2}).ok


def test_random_subspaces_count_up_to_a_quarter_of_the_width_inclusive():
    measured = low_rank([1.0] * 4, [0.0, 0.0, 0.0, 1.0], directions=32)
    assert not FittedNotRandom("rank").judge(measured, {"rank": 1}).ok


def test_a_planted_rank_above_every_fitted_rank_is_missed():
    measured = low_rank([1.0] * 4, [0.0] * 4)
    assert not FittedNotRandom("rank").judge(measured, {"rank": 16}).ok


def test_no_random_subspace_within_a_quarter_of_the_width_is_missed():
    measured = low_rank([1.0] * 4, [0.0] * 4, directions=3)
    assert not FittedNotRandom("rank").judge(measured, {"rank": 1}).ok


def test_fitted_not_random_shows_both_curves():
    check = FittedNotRandom("rank").judge(low_rank([0.0, 1.0, 1.0, 0.98765], [0.0] * 4),
                                          {"rank": 2})
    assert check == Check(True, "fitted [0.0, 1.0, 1.0, 0.988], random [0.0, 0.0, 0.0, 0.0] at "
                                "ranks [1, 2, 4, 8]; planted rank 2")


def test_is_planted_shows_both_values():
    check = IsPlanted("site", "head").judge({"site": "1.2"}, {"head": "1.0"})
    assert check == Check(False, "site: measured '1.2', planted '1.0'")


@pytest.mark.parametrize("criterion, text", [
    (StepAt("curve", at="from"), "curve at most 0.1 before layer from, at least 0.9 from it"),
    (Window("curve", within="layers", high=0.8, low=0.2),
     "curve at least 0.8 at the layers layers names, at most 0.2 elsewhere"),
    (FittedNotRandom("rank"), "fitted IIA at least 0.9 from the planted rank, random at most "
                              "0.1 up to a quarter of the width"),
    (IsPlanted("site", "head"), "site is the planted head"),
    (KnownAnswer(IsPlanted("site", "head"), "head"),
     "site is the planted head, against the organism's planted head")])
def test_the_description_names_the_keys_and_thresholds(criterion, text):
    assert criterion.describe() == text


KNOWN = {"toy.site": KnownAnswer(IsPlanted("site", "head"), "head"),
         "toy.step": KnownAnswer(StepAt("curve", at="from"), "from")}
PLANTED = {"head": "1.0", "from": 1}


def test_known_answer_checks_are_named_for_their_claims():
    checks = known_answer_checks(KNOWN, {}, PLANTED)
    assert list(checks) == ["toy.site (known answer)", "toy.step (known answer)"]


def test_a_recovered_known_answer_reports_no_failure():
    studies = {"toy.site": lambda: {"site": "1.0"}, "toy.step": lambda: {"curve": [0.0, 1.0]}}
    checks = known_answer_checks(KNOWN, studies, PLANTED)
    assert [check() for check in checks.values()] == [[], []]


def test_a_missed_known_answer_reports_what_was_planted_and_measured():
    studies = {"toy.site": lambda: {"site": "1.0"}, "toy.step": lambda: {"curve": [1.0, 1.0]}}
    checks = known_answer_checks(KNOWN, studies, PLANTED)
    assert checks["toy.site (known answer)"]() == []
    assert checks["toy.step (known answer)"]() == [
        "missed the planted from: curve [1.0, 1.0], step at layer 1"]


@pytest.mark.parametrize("criterion", [StepAt("payload", at="layer"),
                                       Window("payload", within="layers")])
def test_a_layer_criterion_judges_the_curve_its_key_names(criterion):
    assert criterion.curves == ("payload",)


def test_fitted_not_random_judges_the_fitted_and_random_curves():
    assert FittedNotRandom("rank").curves == ("fitted", "random")
