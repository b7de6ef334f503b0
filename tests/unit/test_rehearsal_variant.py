"""The rehearsal profile's variants: another dtype for the CPU rehearsal, the published sizes for
the full-size CUDA one; published values never judge either (issue 26)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.plugin import rehearsal_variant
from harness.profiles import get_profile


def config(dtype=None, sizes="rehearsal"):
    options = {"rehearsal_dtype": dtype, "rehearsal_sizes": sizes}
    return SimpleNamespace(getoption=options.__getitem__)


def test_the_full_size_rehearsal_takes_the_published_sizes_and_no_published_values():
    profile = rehearsal_variant(config(sizes="published"), get_profile("rehearsal"))
    assert profile.sizes == get_profile("published").sizes
    assert not profile.rules.published_values


def test_the_cpu_rehearsal_can_run_every_model_in_float32():
    profile = rehearsal_variant(config(dtype="float32"), get_profile("rehearsal"))
    assert {spec.dtype for spec in profile.models.values()} == {"float32"}
    assert profile.sizes == get_profile("rehearsal").sizes


def test_the_variants_are_for_the_rehearsal_profile_only():
    with pytest.raises(pytest.UsageError):
        rehearsal_variant(config(sizes="published"), get_profile("tiny"))
