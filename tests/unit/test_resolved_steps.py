"""harness.declared_steps.Resolved: a source's declared steps evaluated in this process, each once,
from the values given for their roots."""
from __future__ import annotations

import pytest

from harness.declared_steps import Filtered, NothingToRun, Resolved, Step


def counted(calls: list[str], name: str, value):
    def run(*args, **kwargs):
        calls.append(name)
        return value(*args, **kwargs)
    return run


def test_a_step_reads_its_inputs_from_the_steps_it_names():
    steps = (Step("a", lambda x: x + 1, ("root",)), Step("b", lambda a: a * 10, ("a",)))
    assert Resolved(steps, {"root": 1})["b"] == 20


def test_a_step_read_twice_runs_once():
    calls: list[str] = []
    steps = (Step("a", counted(calls, "a", lambda x: x), ("root",)),
             Step("b", lambda a: a, ("a",)), Step("c", lambda a: a, ("a",)))
    run = Resolved(steps, {"root": 1})
    run["b"], run["c"], run["a"]
    assert calls == ["a"]


def test_a_steps_given_values_follow_its_inputs():
    steps = (Step("a", lambda x, y: (x, y), ("root",), given=("given",)),)
    assert Resolved(steps, {"root": 1})["a"] == (1, "given")


def test_a_batched_step_is_told_the_mode():
    steps = (Step("a", lambda x, batched: batched, ("root",), batched=True),)
    assert [Resolved(steps, {"root": 1}, batched=b)["a"] for b in (False, True)] == [False, True]


def test_nothing_to_run_is_raised_each_time_and_computed_once():
    calls: list[str] = []

    def nothing(x):
        calls.append("a")
        raise NothingToRun("no block")

    run = Resolved((Step("a", nothing, ("root",)), Step("b", lambda a: a, ("a",))), {"root": 1})
    for name in ("a", "b", "a"):
        with pytest.raises(NothingToRun, match="no block"):
            run[name]
    assert calls == ["a"]


def test_reason_says_why_a_step_has_nothing_to_run_and_none_where_it_ran():
    def nothing(x):
        raise NothingToRun("no block")

    run = Resolved((Step("a", nothing, ("root",)), Step("b", lambda x: x, ("root",))), {"root": 1})
    assert (run.reason("a"), run.reason("b")) == ("no block", None)


def test_a_forced_step_is_its_kept_rows():
    steps = (Step("a", lambda x: Filtered([x], [x, 2], "none"), ("root",), forced=True),)
    assert Resolved(steps, {"root": 1})["a"] == [1]


def test_a_forced_step_that_kept_nothing_has_nothing_to_run():
    steps = (Step("a", lambda x: Filtered([], [x], "no row answered"), ("root",), forced=True),)
    assert Resolved(steps, {"root": 1}).reason("a") == "no row answered"


def test_a_forced_step_that_kept_nothing_takes_its_first_offered_rows_where_rows_are_forced():
    steps = (Step("a", lambda x: Filtered([], [x, 2, 3], "none"), ("root",), forced=True),)
    assert Resolved(steps, {"root": 1}, forced_rows=2)["a"] == [1, 2]


def test_forced_rows_are_offered_by_calling_the_offer_only_then():
    offers: list[str] = []
    kept = Filtered([5], lambda: offers.append("called") or [9], "none")
    steps = (Step("a", lambda: kept, forced=True),
             Step("b", lambda: Filtered([], lambda: offers.append("called") or [9], "none"),
                  forced=True))
    run = Resolved(steps, {}, forced_rows=1)
    assert run["a"] == [5] and offers == []
    assert run["b"] == [9] and offers == ["called"]


def test_a_forced_step_offered_nothing_has_nothing_to_run_even_where_rows_are_forced():
    steps = (Step("a", lambda: Filtered([], [], "no row answered"), forced=True),)
    assert Resolved(steps, {}, forced_rows=2).reason("a") == "no row answered"


def test_another_error_is_not_kept_and_runs_again():
    calls: list[str] = []

    def broken(x):
        calls.append("a")
        raise ValueError("broken")

    run = Resolved((Step("a", broken, ("root",)),), {"root": 1})
    for _ in range(2):
        with pytest.raises(ValueError):
            run["a"]
    assert calls == ["a", "a"]


def test_a_step_reads_batched_where_a_step_it_reads_however_indirectly_is_batched():
    steps = (Step("a", lambda x: x, ("root",)), Step("b", lambda a, batched: a, ("a",), batched=True),
             Step("c", lambda b: b, ("b",)))
    run = Resolved(steps, {"root": 1})
    assert [run.reads_batched(n) for n in ("root", "a", "b", "c")] == [False, False, True, True]


def test_a_batched_graph_reads_its_unbatched_steps_from_the_faithful_one():
    calls: list[str] = []
    steps = (Step("a", counted(calls, "a", lambda x: x), ("root",)),
             Step("b", counted(calls, "b", lambda a, batched: (a, batched)), ("a",), batched=True))
    faithful = Resolved(steps, {"root": 1})
    fast = Resolved(steps, {"root": 1}, batched=True, unbatched=faithful)
    assert (faithful["b"], fast["b"]) == ((1, False), (1, True))
    assert calls == ["a", "b", "b"]
