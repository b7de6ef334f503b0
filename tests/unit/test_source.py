"""A source's modules read by name (harness.source.Source.part): only the declared parts."""
from __future__ import annotations

import pytest

from harness.registry import source
from harness.source import SourcePart


def test_a_part_the_source_has_is_its_module():
    assert source("cot").part(SourcePart.BREAKAGES).__name__ == "harness.sources.cot.breakages"


def test_a_declared_part_the_source_lacks_is_none():
    assert source("ioi_tutorial").part(SourcePart.ORGANISM) is None


def test_an_undeclared_part_is_refused():
    with pytest.raises(ValueError, match="plans"):
        source("cot").part("plans")
