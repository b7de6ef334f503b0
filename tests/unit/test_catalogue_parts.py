"""Issue 36: every registered source's breakage catalogue covers each part its source has (its writes,
studies and readouts, and fast-mode batching where a step is batched), read from the BREAKAGES
tuples the registry's packages declare, without running them."""
from __future__ import annotations

import pytest

from harness import catalogue
from harness.breakage_edit import Part
from harness.registry import registered, source


@pytest.mark.parametrize("name", sorted(registered()))
def test_a_sources_catalogue_covers_every_part_it_has(name: str):
    found = source(name)
    covered = {b.part for b in catalogue.declared(found) if not b.gap}
    assert catalogue.owed(found) <= covered, (
        f"{name}'s breakages.py has no breakage of "
        f"{sorted(str(p) for p in catalogue.owed(found) - covered)}")


def test_batching_is_owed_only_by_a_source_with_a_batched_step():
    assert Part.BATCHING in catalogue.owed(source("patching"))
    assert Part.BATCHING not in catalogue.owed(source("heads"))
