"""check_snapshot through syrupy's own assertion: a missing pin, an unreadable one, drift and its
message, --snapshot-update, and the file a pin is written as."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.amber import AmberSnapshotExtension
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation
from syrupy.session import SnapshotSession

from harness.snapshots import (EXACT, ORGANISM_FLOATS, SnapshotCheck, Tolerance,
                               check_snapshot, read_snapshot, session_extension, snapshot_path,
                               snapshot_payload)
from harness.verdicts import Comparison, Drift, UnreadableFile

# syrupy asks that a pin's path name its test module; the plugin's live under snapshots/<profile>/
pytestmark = pytest.mark.filterwarnings(r"ignore:\s*Can not relate snapshot location")


class Pins:
    """One test's snapshot checks, on a syrupy session of their own (the plugin's is the run's)."""

    def __init__(self, request: pytest.FixtureRequest, root: Path) -> None:
        self.node = request.node
        self.session = SnapshotSession(pytest_session=request.session)
        self.extension = session_extension()
        self.path = snapshot_path(root, "tiny", "cot", self.node.name)

    def pin(self, measured: dict[str, Any]) -> None:
        """A pin of `measured`, written by hand."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(snapshot_payload("cot.x", "tiny", measured)))

    def check(self, measured: dict[str, Any], floats: Tolerance = EXACT, *, updating: bool = False,
              required: bool = True) -> SnapshotCheck:
        """check_snapshot as the plugin calls it; what syrupy queued is written, as at the run's end."""
        assertion = SnapshotAssertion(session=self.session, extension_class=AmberSnapshotExtension,
                                      test_location=PyTestLocation(self.node),
                                      update_snapshots=updating)
        found = check_snapshot(assertion, self.extension, self.node.nodeid, self.path,
                               snapshot_payload("cot.x", "tiny", measured), floats,
                               updating=updating, required=required)
        self.session.flush_snapshot_write_queue()
        return found

    def measured(self) -> Any:
        """The values the pin holds now."""
        return read_snapshot(self.path)["measured"]


@pytest.fixture
def pins(request: pytest.FixtureRequest, tmp_path: Path) -> Pins:
    """The test's snapshot checks, pinned under its tmp_path."""
    return Pins(request, tmp_path)


def test_a_missing_pin_fails_where_pins_are_required(pins):
    assert pins.check({"v": 0.5}) == SnapshotCheck(Comparison.NEW, Drift.UNPINNED, failure=(
        f"no pinned snapshot at {pins.path}; pin it with --snapshot-update"))


def test_a_missing_pin_is_only_unpinned_where_pins_are_not_required(pins):
    assert pins.check({"v": 0.5}, required=False) == SnapshotCheck(Comparison.NEW, Drift.UNPINNED)
    assert not pins.path.exists()


def test_an_equal_measurement_is_exact(pins):
    pins.pin({"v": 0.5, "n": 20})
    assert pins.check({"v": 0.5, "n": 20}) == SnapshotCheck(Comparison.EXACT, Drift.NONE)


def test_a_float_inside_the_tolerance_is_within_it(pins):
    pins.pin({"v": 0.5, "n": 20})
    assert pins.check({"v": 0.5000001, "n": 20}, ORGANISM_FLOATS) == SnapshotCheck(
        Comparison.WITHIN, Drift.NONE)


def test_a_float_outside_the_tolerance_drifts_and_fails(pins):
    pins.pin({"v": 0.5, "n": 20})
    assert pins.check({"v": 0.7, "n": 21}, ORGANISM_FLOATS) == SnapshotCheck(
        Comparison.OUTSIDE, Drift.DRIFTED, (".v: pinned 0.5, measured 0.7", ".n: pinned 20, measured 21"),
        failure=(f"drifted from its snapshot {pins.path}: .v: pinned 0.5, measured 0.7; "
                 ".n: pinned 20, measured 21"))


def test_nan_against_a_pinned_number_drifts(pins):
    pins.pin({"v": 0.5})
    assert pins.check({"v": float("nan")}).differences == (".v: pinned 0.5, measured nan",)


def test_nan_and_infinities_pinned_and_measured_again_are_exact(pins):
    undefined = {"v": float("nan"), "bounds": [float("-inf"), float("inf")]}
    pins.check(undefined, updating=True)
    assert pins.check(undefined, ORGANISM_FLOATS) == SnapshotCheck(Comparison.EXACT, Drift.NONE)


def test_a_drift_message_names_the_first_five_differences(pins):
    pins.pin({f"k{i}": i for i in range(7)})
    found = pins.check({f"k{i}": i + 1 for i in range(7)})
    assert len(found.differences) == 7
    assert found.failure.endswith("; .k4: pinned 4, measured 5")


def test_a_pin_that_is_not_json_is_an_error_naming_the_file(pins):
    pins.pin({"v": 0.5})
    pins.path.write_text(pins.path.read_text()[:30])
    with pytest.raises(UnreadableFile) as raised:
        pins.check({"v": 0.5})
    assert str(raised.value).startswith(f"snapshot {pins.path} cannot be read (JSONDecodeError: ")
    assert str(raised.value).endswith("restore it from git or re-pin it with --snapshot-update")


def test_a_pin_without_measured_values_is_an_error_naming_the_file(pins):
    pins.pin({"v": 0.5})
    pins.path.write_text('{"id": "cot.x", "values": {"v": 0.5}}')
    with pytest.raises(UnreadableFile) as raised:
        pins.check({"v": 0.5})
    assert str(raised.value) == (f"snapshot {pins.path} holds no 'measured' values; restore it "
                                 "from git or re-pin it with --snapshot-update")


def test_snapshot_update_pins_a_missing_snapshot(pins):
    assert pins.check({"v": 0.5}, updating=True) == SnapshotCheck(Comparison.NEW, Drift.UNPINNED)
    assert pins.measured() == {"v": 0.5}


def test_snapshot_update_pins_a_drifted_snapshot_anew_without_failing(pins):
    pins.pin({"v": 0.5})
    found = pins.check({"v": 0.7}, updating=True)
    assert (found.drift, found.failure) == (Drift.DRIFTED, None)
    assert pins.measured() == {"v": 0.7}


def test_snapshot_update_repins_an_unreadable_snapshot(pins):
    pins.pin({"v": 0.5})
    pins.path.write_text("{")
    assert pins.check({"v": 0.7}, updating=True) == SnapshotCheck(Comparison.NEW, Drift.UNPINNED)
    assert pins.measured() == {"v": 0.7}


def test_a_pin_is_written_as_readable_json_in_declared_order(pins):
    pins.check({"v": 0.5, "n": 20}, updating=True)
    payload = snapshot_payload("cot.x", "tiny", {"v": 0.5, "n": 20})
    assert pins.path.read_text() == json.dumps(payload, indent=2) + "\n"


def test_a_pin_holds_the_id_the_profile_and_where_its_values_came_from():
    assert snapshot_payload("cot.x", "tiny", {"v": (1, 2)}) == {
        "id": "cot.x", "profile": "tiny",
        "provenance": "measured by interp-claims on the tiny profile", "measured": {"v": [1, 2]}}


def test_a_pin_lives_under_its_profile_and_source():
    assert snapshot_path(Path("/r"), "tiny", "cot", "test_x") == Path(
        "/r/snapshots/tiny/cot/test_x.json")


def test_a_test_that_never_compared_keeps_syrupys_directory(request):
    location = PyTestLocation(request.node)
    assert session_extension().dirname(test_location=location) == JSONSnapshotExtension.dirname(
        test_location=location)


def test_each_session_keeps_its_own_directories(request, pins):
    pins.check({"v": 0.5})
    location = PyTestLocation(request.node)
    assert pins.extension.dirname(test_location=location) == str(pins.path.parent)
    assert session_extension().dirname(test_location=location) != str(pins.path.parent)
