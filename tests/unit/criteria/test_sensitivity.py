"""Each criterion kind's sensitivity, calibrated by simulation against the criterion itself: a
seeded draw of measurements at the published value passes as often as the sensitivity says, and
a draw moved by the reported departure is rejected about POWER of the time (issue 47). Counts,
rates, bounds, Poisson means and curves here; intervals in test_sensitivity_intervals.py."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.criteria import (AtMost, Binomial, BinomialAtMost, BinomialRate, CurveBinomial,
                              Exact, PeakLayer, PoissonMean, Recorded, all_of)
from harness.criteria.intervals import garwood
from harness.criteria.power import POWER
from harness.criteria.sensitivity import Sensitivity, sensitivities
from tests.unit.criteria.simulated import DRAWS, SLACK, one, rejected


def binomial_draws(key: str, n: int, p: float, rate: bool = False,
                   draws: int = DRAWS) -> list[dict[str, Any]]:
    counts = np.random.default_rng(1).binomial(n, min(max(p, 0.0), 1.0), draws)
    return [{key: (int(k) / n if rate else int(k)), "n": n} for k in counts]


BINOMIAL_CASES = [(20, 20), (7, 20), (13, 20), (19, 20), (27, 32), (5, 8), (102, 120)]


@pytest.mark.parametrize("k, n", BINOMIAL_CASES)
def test_a_binomial_replication_at_the_published_count_passes_as_often_as_reported(k, n):
    c, published = Binomial("k"), {"k": k, "n": n}
    passes = 1 - rejected(c, published, binomial_draws("k", n, k / n))
    assert abs(passes - one(c, published).accepts_published) < SLACK


@pytest.mark.parametrize("k, n", BINOMIAL_CASES)
def test_a_binomial_moved_by_its_sensitivity_is_rejected_at_the_power(k, n):
    c, published = Binomial("k"), {"k": k, "n": n}
    found = one(c, published)
    for departure, sign in ((found.lower, -1), (found.higher, +1)):
        if departure is not None:
            share = rejected(c, published, binomial_draws("k", n, k / n + sign * departure))
            assert abs(share - POWER) < SLACK, (sign, departure, share)


def test_the_issues_examples_at_the_published_n():
    assert round(one(Binomial("k"), {"k": 20, "n": 20}).lower, 2) == 0.26
    assert round(one(Binomial("k"), {"k": 7, "n": 20}).lower, 2) == 0.23


def test_a_measured_n_of_zero_is_no_n_and_the_published_one_is_used():
    assert one(BinomialRate("r"), {"r": 0.775, "n": 102}, {"n": 0}).n == 102


def test_a_measured_flag_is_no_n_and_the_published_one_is_used():
    assert one(BinomialRate("r"), {"r": 0.775, "n": 102}, {"n": True}).n == 102


def test_a_rate_is_judged_at_the_measured_n_where_it_carries_one():
    c, published = BinomialRate("r"), {"r": 0.775, "n": 102}
    small, large = one(c, published, {"n": 20}), one(c, published, {"n": 1000})
    assert small.n == 20 and large.n == 1000 and large.lower < small.lower


def test_a_binomial_rate_moved_by_its_sensitivity_is_rejected_at_the_power():
    c, published = BinomialRate("r"), {"r": 0.775, "n": 102}
    found = one(c, published)
    share = rejected(c, published, binomial_draws("r", 102, 0.775 - found.lower, rate=True))
    assert abs(share - POWER) < SLACK


def test_an_at_most_bound_detects_only_a_rise():
    c, published = BinomialAtMost("r"), {"r": 0.033, "n": 91}
    found = one(c, published)
    assert found.lower is None and found.room == (False, True)
    share = rejected(c, published, binomial_draws("r", 91, 0.033 + found.higher, rate=True))
    assert abs(share - POWER) < SLACK


def test_an_at_most_bound_passes_a_replication_unless_every_draw_exceeds_it():
    found = one(BinomialAtMost("r"), {"r": 0.5, "n": 4})  # bound 0.93: only 4 of 4 exceeds it
    assert found.accepts_published == pytest.approx(15 / 16)


def test_an_at_most_bound_at_a_rate_of_one_has_no_room_to_rise():
    assert one(BinomialAtMost("r"), {"r": 1.0, "n": 4}).room == (False, False)


def test_a_poisson_mean_moved_by_its_sensitivity_is_rejected_at_the_power():
    c, published = PoissonMean("x"), {"x": 10.9, "n": 20}
    found = one(c, published)
    rng = np.random.default_rng(2)
    for departure, sign in ((found.lower, -1), (found.higher, +1)):
        totals = rng.poisson(20 * (10.9 + sign * departure), DRAWS)
        share = rejected(c, published, [{"x": int(t) / 20, "n": 20} for t in totals])
        assert abs(share - POWER) < SLACK


def test_a_binomial_is_judged_at_its_criterions_confidence():
    found = one(Binomial("k", confidence=0.5), {"k": 13, "n": 20})
    assert found.accepts_published == pytest.approx(0.633, abs=0.001)  # 0.936 at 95%


def test_a_curve_is_judged_at_its_criterions_confidence():
    found = one(CurveBinomial("c", confidence=0.5), {"c": [0.65], "n": 20})
    assert found.accepts_published == pytest.approx(0.633, abs=0.001)  # 0.936 at 95%


def test_an_empty_curve_has_nothing_to_detect():
    found = one(CurveBinomial("c"), {"c": [], "n": 20})
    assert (found.lower, found.higher, found.room, found.accepts_published) == (
        None, None, (False, False), 1.0)


def test_a_curve_at_one_everywhere_can_only_fall():
    assert one(CurveBinomial("c"), {"c": [1.0, 1.0], "n": 20}).room == (True, False)


def test_a_poisson_mean_can_fall_only_from_above_zero():
    assert one(PoissonMean("x"), {"x": 0.0, "n": 20}).room == (False, True)
    assert one(PoissonMean("x"), {"x": 0.5, "n": 20}).room == (True, True)


def test_a_poisson_mean_is_judged_at_its_criterions_confidence():
    found = one(PoissonMean("x", confidence=0.5), {"x": 10.9, "n": 20})
    assert found.accepts_published == pytest.approx(0.523, abs=0.001)  # 0.95 at 95%


@pytest.mark.parametrize("published_n, n", [(1, 200), (20, 1), (100, 5000)])
def test_a_poisson_mean_published_at_zero_detects_the_rise_a_direct_solve_gives(published_n, n):
    from scipy.optimize import brentq
    from scipy.stats import poisson

    top = math.floor(garwood(0)[1] / published_n * n + 1e-9)  # the most counts accepted at n
    rise = brentq(lambda d: poisson.cdf(top, n * d) - (1 - POWER), 1e-9, 100, xtol=1e-15)
    found = one(PoissonMean("x"), {"x": 0.0, "n": published_n}, {"n": n})
    assert found.higher == pytest.approx(rise, rel=1e-12)


def test_a_curve_moved_by_its_sensitivity_is_rejected_at_the_power():
    c = CurveBinomial("curve")
    published = {"curve": [0.35, 0.25, 0.6, 0.95], "n": 20}
    found = one(c, published)
    rng = np.random.default_rng(3)
    moved = np.clip(np.array(published["curve"]) - found.lower, 0, 1)
    draws = [{"curve": [int(k) / 20 for k in row], "n": 20}
             for row in rng.binomial(20, moved, (4000, 4))]
    assert abs(rejected(c, published, draws) - POWER) < 0.035  # 4000 draws: five errors


def test_a_discrete_rule_and_an_exact_criterion_say_so():
    assert one(PeakLayer("iia"), {"peak_layer": 3}).as_record()["statistical"] is False
    assert one(Exact("v"), {"v": 1}).how == "exact: any change is rejected"


def test_an_exact_criterion_is_recorded_as_not_statistical():
    found = one(Exact("v"), {"v": 1})
    assert (found.key, found.as_record()["statistical"]) == ("v", False)


def test_a_bound_rejects_any_value_over_it():
    found = one(AtMost("v"), {"v": 1})
    assert (found.key, found.how, found.as_record()["statistical"]) == (
        "v", "any value over the bound is rejected", False)


def test_a_recorded_value_is_not_judged():
    found = one(Recorded(), {"v": 1})
    assert (found.key, found.how, found.as_record()["statistical"]) == (
        "(recorded)", "nothing judged: recorded and pinned only", False)


def test_a_criterion_naming_no_key_is_shown_for_all_values():
    class Everything:
        def judge(self, measured, published):
            raise AssertionError("never judged here")

    assert one(Everything(), {"v": 1}).key == "(all)"


def test_the_record_lists_which_ways_a_value_can_move():
    assert one(Binomial("k"), {"k": 20, "n": 20}).as_record()["room"] == [True, False]


def test_a_way_with_room_but_no_departure_says_none_is_rejected_that_often():
    found = Sensitivity("k", "how", 20, 0.1, None)
    assert found.words() == ("k: detects a fall of 0.1 or no rise (none is rejected 80% of the "
                             "time) or more at n=20 (how)")


def test_a_value_with_no_room_to_move_detects_nothing():
    found = Sensitivity("k", "how", room=(False, False))
    assert found.words() == "k: detects nothing (no room to move) or more (how)"


def test_a_conjunction_has_one_sensitivity_per_part():
    parts = sensitivities(all_of(Binomial("a"), Exact("b")), {"a": 3, "b": 1, "n": 10}, {})
    assert [p.key for p in parts] == ["a/n", "b"]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=60).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))))
def test_every_count_has_a_sensitivity_within_reach(kn):
    k, n = kn
    found = one(Binomial("k"), {"k": k, "n": n})
    assert found.room == (k > 0, k < n)
    for departure, reach in ((found.lower, k / n), (found.higher, 1 - k / n)):
        assert departure is None or 0 < departure <= reach + 1e-12
    assert 0.0 <= found.accepts_published <= 1.0
