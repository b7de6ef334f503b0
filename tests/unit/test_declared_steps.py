"""harness.declared_steps: a source's steps are declared once and checked."""
from __future__ import annotations

import pytest

from harness.declared_steps import Step, check_steps
from harness.registry import registered


def double(x: int) -> int:
    return 2 * x


def test_a_step_may_read_another_step():
    check_steps("demo", (Step("a", double, ("demo_sizes",)), Step("b", double, ("a",))))


def test_a_step_may_read_the_session():
    check_steps("demo", (Step("a", double, ("profile",)),))


def test_an_undeclared_input_is_refused():
    with pytest.raises(ValueError, match="undeclared"):
        check_steps("demo", (Step("b", double, ("a",)),))


def test_another_sources_given_step_is_refused():
    with pytest.raises(ValueError, match="undeclared"):
        check_steps("demo", (Step("a", double, ("other_model",)),))


def test_a_step_declared_twice_is_refused():
    with pytest.raises(ValueError, match="declared twice"):
        check_steps("demo", (Step("a", double), Step("a", double)))


def test_an_input_read_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        Step("a", double, ("profile", "profile"))


@pytest.mark.parametrize("name", sorted(registered()))
def test_every_sources_steps_are_well_declared(name):
    check_steps(name, registered()[name].steps)


@pytest.mark.parametrize("name", sorted(registered()))
def test_every_source_declares_its_steps(name):
    assert registered()[name].steps
