"""Each source's model is freed when its folder's tests are done: nothing that can hold it outlives
its package (a session-scoped fixture would keep every source's weights loaded at once)."""
from __future__ import annotations

import importlib

import pytest

from harness.registry import registered
from tests.paths import ROOT


def fixture_scopes(source: str) -> dict[str, str]:
    module = importlib.import_module(f"claims.{source}.conftest")
    return {name: obj._fixture_function_marker.scope for name, obj in vars(module).items()
            if hasattr(obj, "_fixture_function_marker")}


@pytest.mark.parametrize("source", sorted(s for s in registered()
                                          if (ROOT / "claims" / s / "conftest.py").exists()))
def test_every_fixture_of_a_source_lives_no_longer_than_its_package(source):
    scopes = fixture_scopes(source)
    assert f"{source}_model" in scopes
    assert {name for name, scope in scopes.items() if scope == "session"} == set()
