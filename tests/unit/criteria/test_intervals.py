"""The interval criteria: each two-sided one accepts a value at and just inside either end of its
interval (the reference implementation's) and rejects one just outside either end; the one-sided
BinomialAtMost accepts anything up to its upper end; the detail each shows; its description."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.criteria import (Binomial, BinomialAtMost, BinomialRate, Check, CurveBinomial,
                              Criterion, PoissonMean, clopper_pearson, garwood,
                              published_interval)
from tests.unit.criteria.references import binomial_reference, poisson_reference

clopper_pearson(1, 2)  # loads scipy before hypothesis times a call against its deadline
# (k, n, confidence): none, one, some, all but one and all of n, at three confidences
AT = [(0, 20, 0.95), (1, 20, 0.9), (13, 20, 0.99), (19, 20, 0.95), (20, 20, 0.9), (3, 91, 0.99),
      (149, 200, 0.95), (0, 1, 0.99), (1, 1, 0.9), (20, 20, 0.99), (0, 20, 0.9)]


@dataclass(frozen=True)
class Case:
    """A criterion, the published values it judges against, how a value is measured, and the
    interval it should hold: its own ends and the reference implementation's."""

    criterion: Criterion
    published: dict[str, Any]
    measured: Callable[[float], dict[str, Any]]
    own: tuple[float, float]
    reference: tuple[float, float]

    def judge(self, value: float) -> Check:
        return self.criterion.judge(self.measured(value), self.published)

    def margin(self) -> float:
        return (self.reference[1] - self.reference[0]) * 1e-6


def cases() -> list[Any]:
    """Every two-sided criterion at each published count and confidence."""
    found = []
    for k, n, c in AT:
        own, ref = clopper_pearson(k, n, c), binomial_reference(k, n, c)
        poisson = tuple(x / n for x in garwood(k, c)), tuple(x / n for x in poisson_reference(k, c))
        found += [
            pytest.param(Case(Binomial("k", confidence=c), {"k": k, "n": n},
                              lambda v: {"k": v, "n": 1}, own, ref), id=f"Binomial-{k}/{n}-{c}"),
            pytest.param(Case(BinomialRate("r", confidence=c), {"r": k / n, "n": n},
                              lambda v: {"r": v}, own, ref), id=f"BinomialRate-{k}/{n}-{c}"),
            pytest.param(Case(CurveBinomial("curve", confidence=c),
                              {"curve": [0.5, k / n], "n": n}, lambda v: {"curve": [0.5, v]},
                              own, ref), id=f"CurveBinomial-{k}/{n}-{c}"),
            pytest.param(Case(PoissonMean("x", confidence=c), {"x": k / n, "n": n},
                              lambda v: {"x": v}, *poisson), id=f"PoissonMean-{k}/{n}-{c}")]
    return found


@pytest.mark.parametrize("case", cases())
def test_a_value_exactly_at_either_end_is_accepted(case):
    assert case.judge(case.own[0]).ok and case.judge(case.own[1]).ok


@pytest.mark.parametrize("case", cases())
def test_a_value_just_inside_either_end_is_accepted(case):
    lo, hi = case.reference
    assert case.judge(lo + case.margin()).ok and case.judge(hi - case.margin()).ok


@pytest.mark.parametrize("case", cases())
def test_a_value_just_below_the_lower_end_is_rejected(case):
    assert not case.judge(case.reference[0] - case.margin()).ok
    assert not case.judge(math.nextafter(case.own[0], -math.inf)).ok


@pytest.mark.parametrize("case", cases())
def test_a_value_just_above_the_upper_end_is_rejected(case):
    assert not case.judge(case.reference[1] + case.margin()).ok
    assert not case.judge(math.nextafter(case.own[1], math.inf)).ok


def at_most(k: int, n: int, c: float) -> tuple[BinomialAtMost, dict[str, Any], float]:
    return BinomialAtMost("max", confidence=c), {"max": k / n, "n": n}, clopper_pearson(k, n, c)[1]


@given(st.sampled_from(AT), st.floats(min_value=0.0, max_value=1.0))
def test_binomial_at_most_accepts_anything_up_to_its_upper_end(at, fraction):
    criterion, published, hi = at_most(*at)
    assert criterion.judge({"max": hi * fraction}, published).ok


@pytest.mark.parametrize("k, n, c", AT)
def test_binomial_at_most_accepts_its_upper_end_exactly(k, n, c):
    criterion, published, hi = at_most(k, n, c)
    assert criterion.judge({"max": hi}, published).ok


@pytest.mark.parametrize("k, n, c", AT)
def test_binomial_at_most_rejects_anything_past_its_upper_end(k, n, c):
    criterion, published, hi = at_most(k, n, c)
    assert not criterion.judge({"max": math.nextafter(hi, math.inf)}, published).ok
    assert not criterion.judge({"max": binomial_reference(k, n, c)[1] + 1e-6}, published).ok


def test_binomial_shows_the_measured_count_and_the_published_interval():
    check = Binomial("correct").judge({"correct": 17, "n": 20}, {"correct": 20, "n": 20})
    assert check == Check(True, "correct: measured 17/20 = 0.850, published 20/20 -> "
                                "[0.832, 1.000]")


def test_binomial_rate_shows_the_published_rate_as_a_count():
    check = BinomialRate("belief").judge({"belief": 0.7}, {"belief": 0.745, "n": 200})
    assert check == Check(True, "belief: measured 0.7000, published 0.745 (~149/200) -> "
                                "[0.679, 0.804]")


def test_binomial_at_most_shows_the_bound():
    check = BinomialAtMost("max_iia").judge({"max_iia": 0.1}, {"max_iia": 0.033, "n": 91})
    assert check == Check(False, "max_iia: measured 0.1000, published ≤ 0.033 (~3/91) -> "
                                 "bound 0.093")


def test_poisson_mean_shows_the_published_total():
    check = PoissonMean("x").judge({"x": 12.5}, {"x": 10.9, "n": 20})
    assert check == Check(False, "x: measured 12.5, published 10.9 (total 218 over 20) -> "
                                 "[9.50, 12.45]")


def test_a_curve_names_every_point_that_misses():
    check = CurveBinomial("curve").judge({"curve": [0.0, 0.9, 0.3]},
                                         {"curve": [0.0, 0.5, 1.0], "n": 20})
    assert check == Check(False, "curve: [1] 0.900 not in [0.272, 0.728]; "
                                 "[2] 0.300 not in [0.832, 1.000]")


def test_a_curve_inside_says_so():
    check = CurveBinomial("curve").judge({"curve": [0.0, 0.5]}, {"curve": [0.0, 0.5], "n": 20})
    assert check == Check(True, "curve: all 2 points inside")


def test_a_curve_of_another_length_fails():
    check = CurveBinomial("curve").judge({"curve": [0.0, 0.5]},
                                         {"curve": [0.0, 0.5, 1.0], "n": 20})
    assert check == Check(False, "curve: 2 points measured, 3 published")


def test_a_published_rate_is_the_nearest_count_at_its_n():
    assert published_interval({"r": 0.745, "n": 200}, "r", "n", 0.99) == \
        (149, 200, *clopper_pearson(149, 200, 0.99))


def test_binomial_without_samples_is_an_error():
    with pytest.raises(ValueError, match=r"^no samples: measured n = 0$"):
        Binomial("k").judge({"k": 0, "n": 0}, {"k": 1, "n": 2})


@pytest.mark.parametrize("k, n", [(0, 0), (-1, 5), (6, 5), (1, 0)])
def test_clopper_pearson_refuses_an_impossible_count(k, n):
    with pytest.raises(ValueError, match=rf"^need 0 <= k <= n and n > 0, got k={k}, n={n}$"):
        clopper_pearson(k, n)


@given(st.floats(min_value=0.0, max_value=1.0), st.integers(min_value=1, max_value=10**6),
       st.floats(min_value=0.5, max_value=0.999))
def test_a_published_rate_passes_its_own_criteria(rate, n, c):
    published = {"r": rate, "n": n}
    assert BinomialRate("r", confidence=c).judge(published, published).ok
    assert BinomialAtMost("r", confidence=c).judge(published, published).ok


@given(st.floats(min_value=0.0, max_value=100.0), st.integers(min_value=1, max_value=10**4),
       st.floats(min_value=0.5, max_value=0.999))
def test_a_published_mean_passes_its_own_criterion(mean, n, c):
    published = {"x": mean, "n": n}
    assert PoissonMean("x", confidence=c).judge(published, published).ok


@pytest.mark.parametrize("criterion, text", [
    (Binomial("correct"), "correct/n inside the 95% binomial interval of the published count"),
    (Binomial("k", "m", 0.99), "k/m inside the 99% binomial interval of the published count"),
    (BinomialRate("r", confidence=0.9), "r inside the 90% binomial interval of the published rate"),
    (BinomialAtMost("max"), "max at most the 95% upper binomial bound of the published maximum"),
    (CurveBinomial("curve"), "every point of curve inside the 95% binomial interval"),
    (PoissonMean("x"), "x inside the 95% Poisson interval of the published total")])
def test_the_description_names_the_key_and_the_confidence(criterion, text):
    assert criterion.describe() == text
