"""harness.plugin.step_fixtures: what a declared step's fixture requests and computes."""
from __future__ import annotations

import pytest
from _pytest.outcomes import Skipped

from harness.declared_steps import Filtered, NothingToRun, Step
from harness.models.backends import Backend
from harness.plugin.step_fixtures import argnames, step_body
from harness.profiles import Mode


def echo(*args, **kwargs):
    return args, kwargs


def test_a_step_requests_its_inputs():
    assert argnames(Step("s", echo, ("a", "b"))) == ("a", "b")


def test_a_batched_step_requests_the_mode():
    assert argnames(Step("s", echo, ("a",), batched=True)) == ("a", "mode")


def test_a_batched_step_runs_batched_in_fast_mode():
    body = step_body(Step("s", echo, ("a",), batched=True))
    assert body(a=1, mode=Mode.FAST) == ((1,), {"batched": True})


def test_a_batched_step_runs_one_row_at_a_time_in_faithful_mode():
    body = step_body(Step("s", echo, ("a",), batched=True))
    assert body(a=1, mode=Mode.FAITHFUL) == ((1,), {"batched": False})


def test_given_values_follow_the_inputs():
    assert step_body(Step("s", echo, ("a",), given=(2, 3)))(a=1) == ((1, 2, 3), {})


def test_a_step_that_needs_local_weights_skips_on_ndif_with_its_reason():
    body = step_body(Step("s", echo, (), local_weights="hooks the modules"))
    with pytest.raises(Skipped, match="hooks the modules"):
        body(backend=Backend.NDIF)


def test_a_step_that_needs_local_weights_runs_locally():
    body = step_body(Step("s", echo, (), local_weights="hooks the modules"))
    assert body(backend=Backend.LOCAL) == ((), {})


def test_nothing_to_run_is_a_skip_with_its_message():
    def none_kept():
        raise NothingToRun("no trace states its product")

    with pytest.raises(Skipped, match="no trace states its product"):
        step_body(Step("s", none_kept))()


def test_a_forced_step_requests_the_request():
    assert argnames(Step("s", echo, ("a",), forced=True)) == ("a", "request")


def test_a_forced_step_returns_the_rows_its_filter_kept():
    body = step_body(Step("s", lambda: Filtered([1, 2], [9], "none kept"), forced=True))
    assert body(request=None) == [1, 2]
