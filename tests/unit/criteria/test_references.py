"""The two exact intervals against independent implementations and against hand-worked values
from the literature: both ends, several confidences, the edges (k = 0, k = n, n = 1) and tiny and
huge counts."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.criteria import clopper_pearson, garwood
from tests.unit.criteria.references import agrees, binomial_reference, poisson_reference

clopper_pearson(1, 2)  # loads scipy before hypothesis times a call against its deadline
CONFIDENCES = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
confidences = st.floats(min_value=0.5, max_value=0.999)
huge = st.integers(min_value=1, max_value=10**6)
counts = st.one_of(  # k of n: anywhere, and at the edges k = 0, k = n, one from either, n = 1
    huge.flatmap(lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))),
    huge.map(lambda n: (0, n)), huge.map(lambda n: (n, n)),
    huge.map(lambda n: (1, n)), huge.map(lambda n: (n - 1, n)),
    st.sampled_from([(0, 1), (1, 1)]))
totals = st.one_of(st.integers(min_value=0, max_value=10**6), st.sampled_from([0, 1, 2]))

# Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
# methods", Statistics in Medicine 17 (1998) 857-872, Table II, method 5 (exact, Clopper-Pearson),
# 95%, to four places.
NEWCOMBE = [(81, 263, ("0.2527", "0.3676")), (15, 148, ("0.0578", "0.1617")),
            (0, 20, ("0.0000", "0.1684")), (1, 29, ("0.0009", "0.1776"))]
# Garwood, "Fiducial limits for the Poisson distribution", Biometrika 28 (1936) 437-442: the 95%
# limits for an observed count.
GARWOOD = [(0, ("0", "3.689")), (1, ("0.0253", "5.572")), (10, ("4.795", "18.39"))]


def as_printed(interval: tuple[float, float], printed: tuple[str, str]) -> tuple[float, float]:
    """Each end rounded to the places the literature prints it with."""
    return tuple(round(x, len(p.partition(".")[2])) for x, p in zip(interval, printed))


@pytest.mark.parametrize("confidence", CONFIDENCES)
@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 10), (10, 10), (1, 10), (9, 10), (13, 20),
                                  (81, 263), (3, 91), (500_000, 10**6), (7, 10**6)])
def test_clopper_pearson_is_scipys_exact_binomial_interval(k, n, confidence):
    assert clopper_pearson(k, n, confidence) == agrees(binomial_reference(k, n, confidence))


@given(counts, confidences)
def test_clopper_pearson_is_scipys_at_any_count(kn, confidence):
    k, n = kn
    assert clopper_pearson(k, n, confidence) == agrees(binomial_reference(k, n, confidence))


@pytest.mark.parametrize("k, n, published", NEWCOMBE)
def test_clopper_pearson_reproduces_newcombes_table(k, n, published):
    assert as_printed(clopper_pearson(k, n), published) == tuple(map(float, published))


@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_clopper_pearson_for_none_or_all_of_ten_is_the_closed_form(confidence):
    # 0 of n: the upper end p solves (1 - p)^n = alpha / 2; n of n mirrors it.
    end = ((1 - confidence) / 2) ** (1 / 10)
    assert clopper_pearson(0, 10, confidence) == pytest.approx((0.0, 1 - end), rel=1e-12)
    assert clopper_pearson(10, 10, confidence) == pytest.approx((end, 1.0), rel=1e-12)


def test_clopper_pearson_for_none_or_all_of_ten_at_95_percent():
    assert as_printed(clopper_pearson(0, 10), ("0", "0.3085")) == (0.0, 0.3085)
    assert as_printed(clopper_pearson(10, 10), ("0.6915", "1")) == (0.6915, 1.0)


@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_clopper_pearson_for_a_single_trial_is_the_tail(confidence):
    tail = (1 - confidence) / 2
    assert clopper_pearson(0, 1, confidence) == pytest.approx((0.0, 1 - tail), rel=1e-12)
    assert clopper_pearson(1, 1, confidence) == pytest.approx((tail, 1.0), rel=1e-12)


@given(counts, confidences)
def test_the_observed_rate_lies_in_its_own_interval(kn, confidence):
    k, n = kn
    lo, hi = clopper_pearson(k, n, confidence)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)


@given(counts, confidences, confidences)
def test_the_binomial_interval_widens_with_confidence(kn, a, b):
    (k, n), (lower, higher) = kn, sorted((a, b))
    narrow, wide = clopper_pearson(k, n, lower), clopper_pearson(k, n, higher)
    assert wide[0] <= narrow[0] and narrow[1] <= wide[1]


@pytest.mark.parametrize("confidence", CONFIDENCES)
@pytest.mark.parametrize("total", [0, 1, 2, 3, 10, 218, 10**4, 10**6])
def test_garwood_is_the_inverted_poisson_distribution(total, confidence):
    assert garwood(total, confidence) == agrees(poisson_reference(total, confidence))


@given(totals, confidences)
def test_garwood_is_the_inverted_poisson_distribution_at_any_total(total, confidence):
    assert garwood(total, confidence) == agrees(poisson_reference(total, confidence))


@pytest.mark.parametrize("total, published", GARWOOD)
def test_garwood_reproduces_garwoods_limits(total, published):
    assert as_printed(garwood(total), published) == tuple(map(float, published))


@pytest.mark.parametrize("confidence", CONFIDENCES)
def test_garwood_for_none_or_one_is_the_closed_form(confidence):
    # P(0 | mu) = exp(-mu): nothing seen has upper end -ln(alpha / 2), one seen has lower end
    # -ln(1 - alpha / 2).
    tail = (1 - confidence) / 2
    assert garwood(0, confidence)[1] == pytest.approx(-math.log(tail), rel=1e-12)
    assert garwood(1, confidence)[0] == pytest.approx(-math.log(1 - tail), rel=1e-12)


@given(totals, confidences)
def test_the_observed_total_lies_in_its_own_interval(total, confidence):
    lo, hi = garwood(total, confidence)
    assert 0.0 <= lo <= total < hi and (lo == 0.0) == (total == 0)


@given(totals, confidences, confidences)
def test_the_poisson_interval_widens_with_confidence(total, a, b):
    lower, higher = sorted((a, b))
    narrow, wide = garwood(total, lower), garwood(total, higher)
    assert wide[0] <= narrow[0] and narrow[1] <= wide[1]
