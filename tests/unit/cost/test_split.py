"""The plan's several-GPU figures: a unit's chain, a split source's time, sources spread whole."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.cost.split import closure, one_per_worker, split_seconds

DEPS = {"sweep": frozenset({"kept", "runner"}), "low_rank": frozenset({"sweep", "kept"}),
        "kept": frozenset({"runner"}), "answer": frozenset({"answer_kept"})}
SECONDS = {"kept": 1.0, "sweep": 10.0, "low_rank": 4.0, "answer_kept": 1.0, "answer": 8.0,
           "behaviour": 2.0}


def test_a_units_closure_holds_everything_it_needs():
    assert closure("low_rank", DEPS) == {"low_rank", "sweep", "kept", "runner"}


def test_a_split_source_takes_its_longest_unit_chain():
    assert split_seconds(SECONDS, DEPS, ("sweep", "low_rank", "answer")) == 15.0


def test_the_source_workers_own_steps_bound_a_split_from_below():
    assert split_seconds(SECONDS, DEPS, ("answer",)) == 18.0


@given(st.lists(st.floats(0, 1e4), min_size=1, max_size=8), st.integers(1, 8))
def test_whole_sources_never_finish_before_the_longest_or_the_average(totals, gpus):
    wall = one_per_worker(totals, gpus)
    assert wall >= max(totals) - 1e-9 and wall >= sum(totals) / gpus - 1e-6
