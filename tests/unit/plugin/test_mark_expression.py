"""`-m` picks the published profile only when it asks for gpu or hub tests, by pytest's own
mark-expression evaluation (issue 26: `not (gpu or hub)` selected it when parsed by hand)."""
from __future__ import annotations

import pytest

from harness.plugin import _selects_published


@pytest.mark.parametrize("expression", ["gpu", "hub", "gpu or hub", "hub and not slow",
                                        "(gpu)"])
def test_an_expression_asking_for_published_tests_selects_the_published_profile(expression):
    assert _selects_published(expression)


@pytest.mark.parametrize("expression", ["", "not (gpu or hub)", "not gpu and not hub",
                                        "not slow", "not slow and not meta", "meta"])
def test_any_other_expression_leaves_the_profile_to_the_machine(expression):
    assert not _selects_published(expression)
