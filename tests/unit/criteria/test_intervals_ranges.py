"""The criteria of harness/criteria/intervals.py that read a range as given, not computed: a
published or measured interval (ends inclusive), a peak layer and a grid choice within their
tolerance, on either side."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import bootstrap

from harness.criteria import Check, CoversPublished, InInterval, NeighbourOf, PeakLayer

ENDS = [(-1.0, 1.0), (0.02514, 0.4), (4.1235, 4.1245), (0.0, 0.0)]


@pytest.mark.parametrize("lo, hi", ENDS)
def test_in_interval_accepts_either_end(lo, hi):
    criterion, published = InInterval("v", "ci"), {"ci": [lo, hi]}
    assert criterion.judge({"v": lo}, published).ok and criterion.judge({"v": hi}, published).ok


@pytest.mark.parametrize("lo, hi", ENDS)
def test_in_interval_rejects_just_outside_either_end(lo, hi):
    criterion, published = InInterval("v", "ci"), {"ci": [lo, hi]}
    assert not criterion.judge({"v": math.nextafter(lo, -math.inf)}, published).ok
    assert not criterion.judge({"v": math.nextafter(hi, math.inf)}, published).ok


def test_in_interval_shows_the_value_and_the_interval():
    check = InInterval("v", "ci").judge({"v": 0.5}, {"ci": [-1.0, 1.0]})
    assert check == Check(True, "v: measured 0.5, published interval [-1.0, 1.0]")


def test_in_interval_reads_a_bootstrap_interval_low_to_high():
    sample = np.random.default_rng(0).normal(size=40)
    ci = bootstrap((sample,), np.mean, n_resamples=999, rng=np.random.default_rng(1))
    published = {"ci": ci.confidence_interval}
    assert ci.confidence_interval.low < sample.mean() < ci.confidence_interval.high
    assert InInterval("v", "ci").judge({"v": sample.mean()}, published).ok
    for outside in (math.nextafter(ci.confidence_interval.low, -math.inf),
                    math.nextafter(ci.confidence_interval.high, math.inf)):
        assert not InInterval("v", "ci").judge({"v": outside}, published).ok


@pytest.mark.parametrize("lo, hi", ENDS)
def test_covers_published_accepts_the_published_value_at_either_end(lo, hi):
    criterion = CoversPublished("p", "p_ci")
    assert criterion.judge({"p": 0.0, "p_ci": [lo, hi]}, {"p": lo}).ok
    assert criterion.judge({"p": 0.0, "p_ci": [lo, hi]}, {"p": hi}).ok


@pytest.mark.parametrize("lo, hi", ENDS)
def test_covers_published_rejects_the_published_value_just_outside_either_end(lo, hi):
    criterion = CoversPublished("p", "p_ci")
    assert not criterion.judge({"p": 0.0, "p_ci": [lo, hi]},
                               {"p": math.nextafter(lo, -math.inf)}).ok
    assert not criterion.judge({"p": 0.0, "p_ci": [lo, hi]},
                               {"p": math.nextafter(hi, math.inf)}).ok


def test_covers_published_shows_both_values_and_the_measured_interval():
    check = CoversPublished("p", "p_ci").judge({"p": 0.4, "p_ci": [0.3, 0.6]}, {"p": 0.5})
    assert check == Check(True, "p: published 0.5, measured 0.4 with interval [0.3, 0.6]")


def peaked(at: int, layers: int = 8) -> list[float]:
    return [1.0 if layer == at else 0.1 * layer for layer in range(layers)]


@pytest.mark.parametrize("tolerance", [0, 1, 2])
@pytest.mark.parametrize("side", [-1, 1])
def test_a_peak_within_tolerance_on_either_side_is_accepted(tolerance, side):
    check = PeakLayer("c", tolerance=tolerance).judge({"c": peaked(4 + side * tolerance)},
                                                      {"peak_layer": 4})
    assert check.ok


@pytest.mark.parametrize("tolerance", [0, 1, 2])
@pytest.mark.parametrize("side", [-1, 1])
def test_a_peak_one_past_tolerance_on_either_side_is_rejected(tolerance, side):
    check = PeakLayer("c", tolerance=tolerance).judge({"c": peaked(4 + side * (tolerance + 1))},
                                                      {"peak_layer": 4})
    assert not check.ok


def test_a_peak_shows_where_it_was_measured():
    check = PeakLayer("iia", layer_key="at").judge({"iia": peaked(6)}, {"at": 4})
    assert check == Check(False, "iia: measured peak at 6, published 4")


GRID = {"best": 30, "grid": [22, 26, 30, 34, 38]}


@pytest.mark.parametrize("tolerance", [0, 1, 2])
@pytest.mark.parametrize("side", [-1, 1])
def test_a_choice_within_tolerance_on_either_side_is_accepted(tolerance, side):
    measured = {"best": GRID["grid"][2 + side * tolerance]}
    assert NeighbourOf("best", "grid", tolerance).judge(measured, GRID).ok


@pytest.mark.parametrize("tolerance", [0, 1])
@pytest.mark.parametrize("side", [-1, 1])
def test_a_choice_one_past_tolerance_on_either_side_is_rejected(tolerance, side):
    measured = {"best": GRID["grid"][2 + side * (tolerance + 1)]}
    assert not NeighbourOf("best", "grid", tolerance).judge(measured, GRID).ok


def test_a_choice_off_the_grid_is_rejected():
    assert not NeighbourOf("best", "grid").judge({"best": 31}, GRID).ok


def test_a_choice_shows_the_grid():
    check = NeighbourOf("best", "grid").judge({"best": 26}, GRID)
    assert check == Check(True, "best: measured 26, published 30 on grid [22, 26, 30, 34, 38]")


@pytest.mark.parametrize("criterion, text", [
    (InInterval("v", "ci"), "v inside the published interval ci"),
    (CoversPublished("p", "p_ci"), "the measured interval p_ci contains the published p"),
    (PeakLayer("iia"), "peak of iia within ±1 layer of the published peak"),
    (PeakLayer("iia", tolerance=2), "peak of iia within ±2 layer of the published peak"),
    (NeighbourOf("best", "grid"), "best within ±1 grid step of the published choice")])
def test_the_description_names_the_keys_and_the_tolerance(criterion, text):
    assert criterion.describe() == text
