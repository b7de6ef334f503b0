"""The rehearsal profile's variants (harness.profile_variants, through the plugin's options):
another dtype for the CPU rehearsal, the published sizes as random weights run them, each decode
step capped; published values never judge them (issues 26, 46)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.plugin import rehearsal_variant
from harness.registry import get_profile


def config(dtype=None, sizes="rehearsal", cap=None):
    options = {"rehearsal_dtype": dtype, "rehearsal_sizes": sizes, "rehearsal_decode_cap": cap}
    return SimpleNamespace(getoption=options.__getitem__)


def test_the_full_size_rehearsal_takes_the_published_sizes_and_no_published_values():
    profile = rehearsal_variant(config(sizes="published"), get_profile("rehearsal"))
    published = get_profile("published").sizes
    assert {k: v for k, v in profile.sizes.items() if k != "heads"} == {
        k: v for k, v in published.items() if k != "heads"}
    assert not profile.rules.published_values


def test_the_published_sizes_are_taken_as_random_weights_run_them():
    profile = rehearsal_variant(config(sizes="published"), get_profile("rehearsal"))
    assert profile.sizes["heads"] == get_profile("published").sizes["heads"].on_random_weights()
    assert profile.sizes["heads"] != get_profile("published").sizes["heads"]


def test_the_rehearsal_sizes_are_left_as_declared():
    profile = rehearsal_variant(config(dtype="float32", cap=64), get_profile("rehearsal"))
    assert profile.sizes["heads"] == get_profile("rehearsal").sizes["heads"]


def test_nothing_asked_leaves_any_profile_as_it_is():
    assert rehearsal_variant(config(), get_profile("tiny")) is get_profile("tiny")


def test_the_cpu_rehearsal_can_run_every_model_in_float32():
    profile = rehearsal_variant(config(dtype="float32"), get_profile("rehearsal"))
    assert {spec.dtype for spec in profile.models.values()} == {"float32"}
    assert profile.sizes == get_profile("rehearsal").sizes


def test_the_variants_are_for_the_rehearsal_profile_only():
    with pytest.raises(pytest.UsageError):
        rehearsal_variant(config(sizes="published"), get_profile("tiny"))


def test_the_decode_cap_stops_every_decode_step_and_changes_nothing_else():
    profile = rehearsal_variant(config(sizes="published", cap=64), get_profile("rehearsal"))
    published = get_profile("published").sizes
    assert profile.sizes["cot"].longest_decode == 64 < published["cot"].longest_decode
    assert published["cot"].decode_capped(10**6) == published["cot"]
    assert profile.sizes["cot"].problems == published["cot"].problems
    assert {k: v for k, v in profile.sizes.items() if k not in ("cot", "heads")} == {
        k: v for k, v in published.items() if k not in ("cot", "heads")}
