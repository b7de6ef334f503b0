"""Snapshot comparison by kind: counts, ids, booleans and strings exactly; floats within a tolerance."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.snapshots import ORGANISM_FLOATS, Tolerance
from harness.snapshots import compare, read_snapshot
from harness.verdicts import UnreadableFile

WIDE = Tolerance(abs=10.0, rel=1.0)


@given(st.integers(), st.integers())
def test_counts_compare_exactly_whatever_the_tolerance(pinned, measured):
    assert (compare(pinned, measured, WIDE) == []) == (pinned == measured)


@given(st.floats(-1e3, 1e3), st.floats(-1e-6, 1e-6))
def test_floats_within_the_organism_default_pass(pinned, nudge):
    assert compare(pinned, pinned + nudge, ORGANISM_FLOATS) == []


@given(st.floats(-1e3, 1e3), st.floats(0.02, 1.0))
def test_floats_beyond_the_tolerance_are_reported(pinned, shift):
    assert compare(pinned, pinned + shift, ORGANISM_FLOATS) != []


def test_a_boolean_is_not_a_count():
    assert compare(True, 1, WIDE) != []
    assert compare(1, True, WIDE) != []


def test_a_count_against_a_float_compares_as_a_float():
    assert compare(2, 2.0000001, ORGANISM_FLOATS) == []


def test_strings_and_token_lists_compare_exactly():
    assert compare(["Mary", 17], ["Mary", 18], WIDE) == ["[1]: pinned 17, measured 18"]
    assert compare("a", "b", WIDE) == [": pinned 'a', measured 'b'"]


def test_a_missing_key_is_a_difference():
    assert compare({"a": 1}, {"a": 1, "b": 2}, WIDE) == [".: pinned keys ['a'], measured ['a', 'b']"]


def test_nan_matches_nan():
    assert compare(float("nan"), float("nan"), Tolerance()) == []


def test_truncated_snapshot_names_its_file_and_the_fix(tmp_path):
    path = tmp_path / "test_x.json"
    path.write_text('{"id": "cot.x", "measured": {"v": 0.')
    with pytest.raises(UnreadableFile, match=r"test_x\.json.*--snapshot-update"):
        read_snapshot(path)


def test_snapshot_without_measured_values_is_unreadable(tmp_path):
    path = tmp_path / "test_x.json"
    path.write_text('{"id": "cot.x"}')
    with pytest.raises(UnreadableFile, match="no 'measured'"):
        read_snapshot(path)


def test_an_organism_tolerance_needs_a_reason():
    from harness.claims import claim
    from harness.criteria import Exact

    with pytest.raises(ValueError, match="needs a reason"):
        claim("cot.x", kind="claim", section="1", statement="s", published={}, provenance="p",
              criterion=Exact("v"), organism_tolerance=Tolerance(abs=1e-3))


def test_unreadable_manifest_names_its_file_and_the_fix(tmp_path):
    from harness.organisms.common import manifest_path, read_manifest

    path = manifest_path("cot", tmp_path)
    path.parent.mkdir()
    path.write_text("{")
    with pytest.raises(UnreadableFile, match=r"cot/manifest\.json.*interp-claims organisms cot"):
        read_manifest("cot", tmp_path)
