"""Criteria over counts and intervals."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.criteria import (Binomial, CurveBinomial, Every, Exact, FittedNotRandom, InInterval,
                              IsPlanted,
                              Length, NeighbourOf, NoneFailed, NoneOf, PeakLayer, PoissonMean, Same, StepAt, Window,
                              all_of, clopper_pearson, garwood)

clopper_pearson(1, 2)  # loads scipy, which criteria import when first judged, before hypothesis
# times a call against its deadline
counts = st.integers(min_value=1, max_value=200).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n)))


@given(counts)
def test_binomial_interval_contains_the_observed_rate(kn):
    k, n = kn
    lo, hi = clopper_pearson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@given(counts)
def test_published_count_always_passes_its_own_criterion(kn):
    k, n = kn
    published = {"k": k, "n": n}
    assert Binomial("k").judge(published, published).ok


@given(counts, st.integers(min_value=1, max_value=200))
def test_binomial_criterion_is_the_interval(kn, m):
    k, n = kn
    measured_k = min(m, n)
    lo, hi = clopper_pearson(k, n)
    check = Binomial("k").judge({"k": measured_k, "n": n}, {"k": k, "n": n})
    assert check.ok == (lo <= measured_k / n <= hi)


def test_all_correct_tolerates_a_few_misses_at_n20():
    published = {"correct": 20, "n": 20}
    assert Binomial("correct").judge({"correct": 17, "n": 20}, published).ok
    assert not Binomial("correct").judge({"correct": 15, "n": 20}, published).ok


@given(st.integers(min_value=0, max_value=500))
def test_poisson_interval_contains_the_total(total):
    lo, hi = garwood(total)
    assert lo <= total <= hi


def test_poisson_mean_accepts_its_own_value():
    published = {"x": 10.9, "n": 20}
    assert PoissonMean("x").judge(published, published).ok
    assert not PoissonMean("x").judge({"x": 5.0, "n": 20}, published).ok


@given(st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=12))
def test_curve_passes_against_itself(ks):
    published = {"curve": [k / 20 for k in ks], "n": 20}
    assert CurveBinomial("curve").judge(published, published).ok


def test_curve_names_the_points_that_miss():
    published = {"curve": [0.0, 0.5, 1.0], "n": 20}
    check = CurveBinomial("curve").judge({"curve": [0.0, 0.5, 0.3]}, published)
    assert not check.ok and "[2]" in check.detail


def test_peak_layer_allows_one_layer_either_side():
    published = {"peak_layer": 2}
    assert PeakLayer("c").judge({"c": [0, 0, 0.2, 0.9]}, published).ok
    assert not PeakLayer("c").judge({"c": [0.9, 0, 0.2, 0.1]}, published).ok


def test_neighbour_on_a_grid():
    published = {"best": 34, "grid": [22, 26, 30, 34]}
    assert NeighbourOf("best", "grid").judge({"best": 30}, published).ok
    assert not NeighbourOf("best", "grid").judge({"best": 26}, published).ok


@given(st.floats(min_value=-10, max_value=10, allow_nan=False))
def test_interval_is_inclusive(x):
    check = InInterval("v", "ci").judge({"v": x}, {"ci": [-1.0, 1.0]})
    assert check.ok == (-1.0 <= x <= 1.0)


def test_all_of_needs_every_part():
    published = {"a": 1, "b": 2}
    assert not all_of(Exact("a"), Exact("b")).judge({"a": 1, "b": 3}, published).ok
    assert all_of(Exact("a"), Exact("b")).judge({"a": 1, "b": 2}, published).ok


@given(counts, st.integers(min_value=0, max_value=3))
def test_every_holds_exactly_when_at_most_slack_cases_fall_short(kn, slack):
    k, n = kn
    assert Every("k", slack=slack).judge({"k": k, "n": n}, {}).ok == (k >= n - slack)


def test_every_fails_on_no_cases():
    assert not Every("k").judge({"k": 0, "n": 0}, {}).ok


def test_same_compares_two_measured_values():
    assert Same("a", "b").judge({"a": 0.5, "b": 0.5}, {}).ok
    assert not Same("a", "b").judge({"a": 0.5, "b": 0.25}, {}).ok


def test_length_counts_a_lists_items():
    assert Length("ids", 1).judge({"ids": [7]}, {}).ok
    assert not Length("ids", 1).judge({"ids": [7, 8]}, {}).ok


@given(st.lists(st.text(min_size=1), max_size=20), st.integers(min_value=1, max_value=50))
def test_none_failed_holds_exactly_when_no_case_failed(names, checked):
    check = NoneFailed().judge(NoneFailed.counts(names, checked), {})
    assert check.ok == (not names)


def test_none_failed_fails_when_no_case_was_checked():
    assert not NoneFailed().judge(NoneFailed.counts([], 0), {}).ok


def test_none_failed_names_the_first_failures():
    check = NoneFailed().judge(NoneFailed.counts([f"case {i}" for i in range(10)], 10), {})
    assert "failed: 10" in check.detail and "case 7" in check.detail and "case 8" not in check.detail


def test_step_at_wants_the_curve_low_before_the_layer_and_high_from_it():
    planted = {"from": 1}
    assert StepAt("curve", at="from").judge({"curve": [0.0, 1.0, 0.95, 1.0]}, planted).ok
    assert not StepAt("curve", at="from").judge({"curve": [0.0, 0.0, 0.0, 0.0]}, planted).ok
    assert not StepAt("curve", at="from").judge({"curve": [0.5, 1.0, 1.0, 1.0]}, planted).ok


def test_window_wants_the_curve_high_at_the_planted_layers_and_low_elsewhere():
    planted = {"layers": [1, 2]}
    assert Window("curve", within="layers").judge({"curve": [0.0, 1.0, 0.95, 0.0]}, planted).ok
    assert not Window("curve", within="layers").judge({"curve": [0.0, 1.0, 1.0, 1.0]}, planted).ok
    assert not Window("curve", within="layers").judge({"curve": [0.0, 0.0, 0.0, 0.0]}, planted).ok


def test_a_window_past_the_curve_is_missed():
    assert not Window("curve", within="layers").judge({"curve": [0.0, 1.0]}, {"layers": [1, 2]}).ok


def low_rank(fitted: list[float], random: list[float]) -> dict:
    return {"ranks": [1, 2, 4, 8], "fitted": fitted, "random": random, "directions": 16}


def test_fitted_not_random_wants_fitted_subspaces_from_the_planted_rank_to_carry_the_swap():
    planted = {"rank": 2}
    assert FittedNotRandom("rank").judge(low_rank([0.0, 1.0, 1.0, 1.0], [0.0] * 3 + [0.5]),
                                         planted).ok
    assert not FittedNotRandom("rank").judge(low_rank([0.0, 0.5, 1.0, 1.0], [0.0] * 4), planted).ok


def test_fitted_not_random_wants_random_subspaces_up_to_a_quarter_of_the_width_to_carry_nothing():
    planted = {"rank": 1}
    assert not FittedNotRandom("rank").judge(low_rank([1.0] * 4, [0.0, 0.0, 0.5, 0.0]), planted).ok


def test_is_planted_compares_a_measured_value_with_the_manifests():
    assert IsPlanted("site", "head").judge({"site": "1.0"}, {"head": "1.0"}).ok
    assert not IsPlanted("site", "head").judge({"site": "1.2"}, {"head": "1.0"}).ok


def test_none_of_holds_for_an_empty_list_of_at_least_one_case():
    assert NoneOf("failing", of="n").judge({"failing": [], "n": 20}, {}).ok
    assert NoneOf("failing", of="pairs").judge({"failing": [], "pairs": ["seed"]}, {}).ok


def test_none_of_fails_on_a_failure_or_on_nothing_checked():
    assert not NoneOf("failing", of="n").judge({"failing": ["p3"], "n": 20}, {}).ok
    assert not NoneOf("failing", of="n").judge({"failing": [], "n": 0}, {}).ok
    assert not NoneOf("failing", of="pairs").judge({"failing": [], "pairs": []}, {}).ok
