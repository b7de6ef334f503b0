"""Snapshot comparison by kind: counts, ids, booleans and strings exactly; floats within a tolerance."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.snapshots import ORGANISM_FLOATS, Tolerance
from harness.snapshots import compare, read_snapshot
from harness.verdicts import UnreadableFile

WIDE = Tolerance(abs=10.0, rel=1.0)
NAN, INF = float("nan"), float("inf")


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


def test_nan_pinned_against_a_number_is_drift():
    assert compare(NAN, 0.5, WIDE) == [": pinned nan, measured 0.5"]


def test_a_number_pinned_against_nan_is_drift():
    assert compare(0.5, NAN, WIDE) == [": pinned 0.5, measured nan"]


def test_nan_against_a_count_is_drift():
    assert compare({"n": 20}, {"n": NAN}, WIDE) == [".n: pinned 20, measured nan"]


def test_an_infinity_matches_itself_within_any_tolerance():
    assert compare([INF, -INF], [INF, -INF], ORGANISM_FLOATS) == []
    assert compare(INF, INF, Tolerance()) == []


def test_an_infinity_against_the_opposite_infinity_is_drift():
    assert compare(INF, -INF, ORGANISM_FLOATS) == [": pinned inf, measured -inf"]


def test_an_infinity_pinned_against_a_large_number_is_drift():
    assert compare(INF, 1e308, ORGANISM_FLOATS) == [": pinned inf, measured 1e+308"]


def test_a_large_number_pinned_against_an_infinity_is_drift():
    assert compare(-1e308, -INF, ORGANISM_FLOATS) == [": pinned -1e+308, measured -inf"]


def test_a_measured_list_shorter_than_its_pin_is_drift():
    assert compare({"ids": [1, 2, 3]}, {"ids": [1, 2]}, WIDE) == [".ids: length 3 != 2"]


def test_a_measured_list_longer_than_its_pin_is_drift():
    assert compare([0.5], [0.5, 0.5], WIDE) == [": length 1 != 2"]


def test_a_removed_key_is_drift():
    assert compare({"a": 1, "b": 2}, {"a": 1}, WIDE) == [".: pinned keys ['a', 'b'], measured ['a']"]


def test_a_key_set_change_deep_inside_names_its_path():
    pinned = {"rows": [{"v": 1}, {"v": 1}]}
    assert compare(pinned, {"rows": [{"v": 1}, {"w": 1}]}, WIDE) == [
        ".rows[1]: pinned keys ['v'], measured ['w']"]


def test_a_difference_in_a_list_of_dicts_names_its_path():
    pinned = [{"layer": 3, "iia": [0.1, 0.9]}, {"layer": 4, "iia": [0.2, 0.8]}]
    measured = [{"layer": 3, "iia": [0.1, 0.9]}, {"layer": 4, "iia": [0.2, 0.5]}]
    assert compare(pinned, measured, ORGANISM_FLOATS) == ["[1].iia[1]: pinned 0.8, measured 0.5"]


def test_a_difference_in_a_dict_of_lists_names_its_path():
    pinned = {"heads": {"L9": [1, 2], "L10": [[3, 4], [5, 6]]}}
    measured = {"heads": {"L9": [1, 2], "L10": [[3, 4], [5, 7]]}}
    assert compare(pinned, measured, WIDE) == [".heads.L10[1][1]: pinned 6, measured 7"]


def test_every_difference_is_named():
    assert compare({"a": 1, "b": [1, 2]}, {"a": 2, "b": [1, 3]}, WIDE) == [
        ".a: pinned 1, measured 2", ".b[1]: pinned 2, measured 3"]


def test_a_count_pinned_against_a_float_beyond_the_tolerance_is_drift():
    assert compare(2, 2.5, ORGANISM_FLOATS) == [": pinned 2, measured 2.5"]


def test_a_boolean_against_a_float_is_drift():
    assert compare(True, 1.0, WIDE) == [": pinned True, measured 1.0"]


def test_none_is_not_zero():
    assert compare(None, 0, WIDE) == [": pinned None, measured 0"]
    assert compare(0.0, None, WIDE) == [": pinned 0.0, measured None"]


def test_a_string_is_not_the_number_it_spells():
    assert compare("0.5", 0.5, WIDE) == [": pinned '0.5', measured 0.5"]


def test_a_dict_against_a_list_is_drift():
    assert compare({"a": 1}, [1], WIDE) == [": pinned {'a': 1}, measured [1]"]


def test_a_list_against_a_number_is_drift():
    assert compare([1], 1, WIDE) == [": pinned [1], measured 1"]


def test_the_tolerance_has_an_absolute_and_a_relative_part():
    floats = Tolerance(abs=0.1, rel=0.5)
    assert compare(10.0, 15.1, floats) == [] and compare(10.0, 15.2, floats) != []
    assert compare(-10.0, -15.1, floats) == []


def test_a_tolerance_is_recorded_by_its_parts():
    assert Tolerance(abs=1e-3, rel=2e-3).as_record() == {"abs": 1e-3, "rel": 2e-3}


def test_truncated_snapshot_names_its_file_and_the_fix(tmp_path):
    path = tmp_path / "test_x.json"
    path.write_text('{"id": "cot.x", "measured": {"v": 0.')
    with pytest.raises(UnreadableFile) as raised:
        read_snapshot(path)
    assert str(raised.value).startswith(f"snapshot {path} cannot be read (JSONDecodeError: ")
    assert str(raised.value).endswith("; restore it from git or re-pin it with --snapshot-update")


def test_snapshot_without_measured_values_is_unreadable(tmp_path):
    path = tmp_path / "test_x.json"
    path.write_text('{"id": "cot.x"}')
    with pytest.raises(UnreadableFile) as raised:
        read_snapshot(path)
    assert str(raised.value) == (f"snapshot {path} holds no 'measured' values; restore it from git "
                                 "or re-pin it with --snapshot-update")


def test_a_readable_snapshot_is_read_whole(tmp_path):
    path = tmp_path / "test_x.json"
    path.write_text('{"id": "cot.x", "measured": {"v": 0.5}}')
    assert read_snapshot(path) == {"id": "cot.x", "measured": {"v": 0.5}}


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
