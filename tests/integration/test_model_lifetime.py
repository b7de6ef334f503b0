"""Each source's model is freed when its folder's tests are done: nothing that can hold it outlives
its package (a session-scoped fixture would keep every source's weights loaded at once)."""
from __future__ import annotations

import pytest

from harness.plugin.step_fixtures import step_fixtures
from harness.registry import registered


def fixture_scopes(source: str) -> dict[str, str]:
    return {name: obj._fixture_function_marker.scope
            for name, obj in step_fixtures(source).items()}


@pytest.mark.parametrize("source", sorted(registered()))
def test_every_fixture_of_a_source_lives_no_longer_than_its_package(source):
    scopes = fixture_scopes(source)
    assert f"{source}_model" in scopes
    assert {name for name, scope in scopes.items() if scope == "session"} == set()
