"""Fixtures shared by the integration tests."""
from __future__ import annotations

import pytest


@pytest.fixture
def tester(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester project on the tiny profile, without the cache provider."""
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider --profile=tiny\n")
    return pytester
