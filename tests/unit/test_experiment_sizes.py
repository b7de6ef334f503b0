"""What a profile variant may ask of every source's sizes (harness.profiles.ExperimentSizes):
declared once on a base, so nothing looks for a method by name."""
from __future__ import annotations

import pytest

from harness.profiles import ExperimentSizes, ProfileName
from harness.registry import get_profile
from harness.sources.cot.sizes import TINY as COT_TINY
from harness.sources.patching.sizes import TINY as PATCHING_TINY


@pytest.mark.parametrize("profile", list(ProfileName))
def test_every_sources_sizes_answer_what_a_variant_asks(profile):
    sizes = get_profile(profile).sizes
    assert sizes and all(isinstance(s, ExperimentSizes) for s in sizes.values())


def test_sizes_that_decode_nothing_are_as_they_are_under_a_cap():
    assert PATCHING_TINY.decode_capped(4) is PATCHING_TINY
    assert PATCHING_TINY.longest_decode == 0


def test_sizes_that_decode_are_capped():
    assert COT_TINY.decode_capped(4).longest_decode == 4 < COT_TINY.longest_decode


def test_random_weights_run_sizes_as_declared_unless_a_source_says_otherwise():
    assert PATCHING_TINY.on_random_weights() is PATCHING_TINY
