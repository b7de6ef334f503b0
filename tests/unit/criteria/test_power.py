"""harness.criteria.power: which Poisson totals a mean's interval accepts, and the least n at which
a departure is detected, found by doubling then bisection, on departures given directly
(issue 47)."""
from __future__ import annotations

import math

import pytest
from scipy.stats import poisson

from harness.criteria.power import (POWER, accepted_counts, n_to_detect, poisson_acceptance,
                                    smallest_departure)


def test_counts_are_read_as_rates_over_n():
    assert accepted_counts(4, 0.5, 1.0).tolist() == [False, False, True, True, True]


def test_counts_are_read_over_the_scale_given():
    assert accepted_counts(4, 0.5, 1.0, scale=2).tolist() == [False, True, True, False, False]


def test_no_departure_is_found_without_room_to_move():
    assert smallest_departure(lambda d: 0.0, 0.0) is None  # rejected always, but nowhere to go


def step(at: float, after: float = 0.0):
    """An acceptance that is certain below `at` and `after` from there on."""
    return lambda d: 1.0 if d < at else after


def test_a_crossing_in_the_last_step_of_reach_is_found():
    assert smallest_departure(step(0.999), 1.0) == pytest.approx(0.999)


def test_a_crossing_in_the_second_step_of_reach_is_found():
    assert smallest_departure(step(0.004), 1.0) == pytest.approx(0.004)


def test_a_rejection_exactly_at_the_power_counts_as_detected():
    assert smallest_departure(step(0.501, after=1 - POWER), 1.0) == pytest.approx(0.501)


def test_a_window_rejected_below_the_crossing_is_not_the_departure():
    # rejected in [0.25, 0.35), accepted again up to 0.6: only from 0.6 on is every move rejected
    def acceptance(d: float) -> float:
        return 0.0 if 0.25 <= d < 0.35 or d >= 0.6 else 1.0

    assert smallest_departure(acceptance, 1.0) == pytest.approx(0.6)


def shrinking(n: int) -> float:
    """A departure detected at n that halves as n doubles."""
    return 1 / n


def test_the_least_n_whose_departure_reaches_the_effect_is_found():
    assert n_to_detect(shrinking, 0.1) == 10  # 1/10 is the effect itself: enough


def test_an_effect_detected_at_one_needs_one():
    assert n_to_detect(shrinking, 1.0) == 1


def test_an_effect_first_detected_at_two_needs_two():
    assert n_to_detect(shrinking, 0.5) == 2


def test_no_effect_is_never_detected_even_where_nothing_departs():
    assert n_to_detect(lambda n: 0.0, 0.0) is None


def test_the_most_n_is_itself_tried():
    assert n_to_detect(shrinking, 0.25, most=4) == 4


def test_an_effect_needing_more_than_the_most_is_never_detected():
    assert n_to_detect(shrinking, 0.25, most=3) is None


def test_a_total_that_is_surely_zero_is_accepted_where_zero_is():
    assert poisson_acceptance(10, 0.0, 0.5, 0.0) == 1.0


def test_a_total_on_the_upper_edge_is_accepted_where_the_edge_rounds_under_it():
    # 0.29 * 100 is 28.999999999999996: the total 29 is on the edge, and accepted
    assert poisson_acceptance(100, 0.0, 0.29, 0.29) == pytest.approx(poisson.cdf(29, 29))


def test_a_total_on_the_lower_edge_is_accepted_where_the_edge_rounds_under_it():
    # 0.57 * 100 is 56.99999999999999: the total 57 is on the edge, and accepted
    assert poisson_acceptance(100, 0.57, 1.0, 0.57) == pytest.approx(poisson.cdf(100, 57)
                                                                    - poisson.cdf(56, 57))


def test_a_region_holding_one_total_accepts_with_its_probability():
    assert poisson_acceptance(10, 0.5, 0.5, 0.5) == pytest.approx(poisson.pmf(5, 5))


def test_a_region_holding_no_total_never_accepts():
    assert poisson_acceptance(10, 0.51, 0.59, 0.5) == 0.0


def test_a_region_from_one_up_leaves_out_a_total_of_zero():
    assert poisson_acceptance(10, 0.1, 10.0, 0.1) == pytest.approx(1 - math.exp(-1))
