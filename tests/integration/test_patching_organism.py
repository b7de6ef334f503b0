"""The patching organism prefers the indirect object, as its task needs."""
from __future__ import annotations

from harness.models.loaded import load
from harness.sources import get_profile
from harness.sources.patching import organism

PREFERENCE_FLOOR = 0.9  # the share of held-out sentences where the IO outscores the subject


def test_patching_organism_prefers_the_indirect_object():
    model = load(get_profile("tiny").models["patching"])
    assert organism.io_preference(model.hf, model.tok) > PREFERENCE_FLOOR
