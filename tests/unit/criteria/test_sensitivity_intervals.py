"""Each interval criterion's sensitivity (issue 47): a bootstrap or measured interval moved by
its reported departure is rejected about POWER of the time, its departures match the normal
model's, and an interval of rounding or of no width says it is not statistical."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from harness.criteria import CoversPublished, InInterval
from harness.criteria.power import POWER
from tests.unit.criteria.simulated import DRAWS, SLACK, one


def normal_rejects(c: Any, published: dict, make: Callable[[float], dict], centre: float,
                   se: float) -> float:
    values = np.random.default_rng(4).normal(centre, se, DRAWS)
    return sum(not c.judge(make(float(v)), published).ok for v in values) / DRAWS


def test_a_bootstrap_interval_moved_by_its_sensitivity_is_rejected_at_the_power():
    c, published = InInterval("loss", "ci"), {"loss": 0.187, "ci": [0.025, 0.433]}
    found, se = one(c, published), (0.433 - 0.025) / (2 * 1.959964)
    passes = 1 - normal_rejects(c, published, lambda v: {"loss": v}, 0.187, se)
    assert abs(passes - found.accepts_published) < SLACK  # not 0.95: the interval is skewed
    for departure, sign in ((found.lower, -1), (found.higher, +1)):
        share = normal_rejects(c, published, lambda v: {"loss": v}, 0.187 + sign * departure, se)
        assert abs(share - POWER) < SLACK


def test_a_measured_interval_moved_by_its_sensitivity_is_rejected_at_the_power():
    c, published, w = CoversPublished("m", "m_ci"), {"m": 0.5}, 0.1
    found = one(c, published, {"m_ci": [0.4, 0.6]})
    share = normal_rejects(c, published, lambda v: {"m": v, "m_ci": [v - w, v + w]},
                           0.5 + found.higher, w / 1.959964)
    assert abs(share - POWER) < SLACK


def test_a_measured_interval_before_a_run_is_recorded_as_not_statistical():
    found = one(CoversPublished("m", "m_ci"), {"m": 0.5})
    assert found.as_record()["statistical"] is False


def test_a_measured_interval_with_a_missing_end_is_known_only_after_a_run():
    found = one(CoversPublished("m", "m_ci"), {"m": 0.5}, {"m_ci": [None, 0.6]})
    assert (found.how, found.statistical) == (
        "known after a run: the measured interval's width sets it", False)


def test_a_measured_interval_of_no_width_rejects_any_change():
    found = one(CoversPublished("m", "m_ci"), {"m": 0.5}, {"m_ci": [0.5, 0.5]})
    assert (found.key, found.how, found.as_record()["statistical"]) == (
        "m", "a measured interval of no width: any change is rejected", False)


def test_a_measured_interval_names_its_spread():
    found = one(CoversPublished("m", "m_ci"), {"m": 0.5}, {"m_ci": [0.4, 0.6]})
    assert (found.key, found.how) == ("m", "normal model with the measured interval's spread; "
                                           "seeded simulation, 20000 draws")


def test_a_rounding_interval_is_not_statistical():
    found = one(InInterval("d", "printed", rounding=True), {"d": 4.124, "printed": [4.1235, 4.1245]})
    assert not found.statistical and found.lower == pytest.approx(0.0005)


def test_a_rounding_interval_rejects_a_move_past_either_edge_at_any_n():
    found = one(InInterval("d", "printed", rounding=True), {"d": 4.124, "printed": [4.1235, 4.1249]})
    assert (found.n, found.lower, found.higher, found.as_record()["statistical"]) == (
        None, pytest.approx(0.0005), pytest.approx(0.0009), False)


def test_a_published_interval_of_no_width_rejects_any_change():
    found = one(InInterval("v", "ci"), {"v": 0.5, "ci": [0.5, 0.5]})
    assert (found.key, found.how, found.as_record()["statistical"]) == (
        "v", "an interval of no width: any change is rejected", False)


def normal_crossing(v0: float, lo: float, hi: float, sign: int) -> float:
    """The departure at which a normal estimate with the interval's standard error leaves
    [lo, hi] with probability POWER, solved exactly (past the interval's centre, where the
    acceptance falls)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    se = (hi - lo) / (2 * 1.959964)

    def accepted(d: float) -> float:
        return norm.cdf((hi - v0 - sign * d) / se) - norm.cdf((lo - v0 - sign * d) / se)

    centre = max(sign * ((lo + hi) / 2 - v0), 0.0)
    return brentq(lambda d: accepted(d) - (1 - POWER), centre, (hi - lo) + 10 * se)


@pytest.mark.parametrize("v0, lo, hi", [(-10.0, -10.5, -9.5), (1.0, 0.0, 20.0)])
def test_a_bootstrap_intervals_departures_match_the_normal_model(v0, lo, hi):
    found, se = one(InInterval("v", "ci"), {"v": v0, "ci": [lo, hi]}), (hi - lo) / (2 * 1.959964)
    assert found.lower == pytest.approx(normal_crossing(v0, lo, hi, -1), abs=0.05 * se)
    assert found.higher == pytest.approx(normal_crossing(v0, lo, hi, +1), abs=0.05 * se)
