"""The session object: a finished test's entry joins the controller's record as it is, and
crosses from an xdist worker as plain JSON in its report; what the plugin's parts learn as tests
run changes through its methods."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from harness.plugin.entries import entry_of
from harness.plugin.state import RECORD_PROPERTY, SPEC, claims_session
from harness.reporting.record import RecordBuilder
from tests.unit.plugin.judged_items import declared, item, state

MODEL = {"source": "cot", "path": Path("/models/cot")}


def finished(on_controller: bool, model: dict | None = MODEL):
    """A finished test's session, its report and its entry, the session added."""
    test = item(declared())
    session = claims_session(test.config)
    if on_controller:
        session.start_record({"models": {}})
    if model:
        session.model_loaded("cot", model)
    report = SimpleNamespace(user_properties=[])
    entry = entry_of(test, test.stash[SPEC], state(test))
    session.add_entry(report, entry)
    return session, report, entry


def test_on_the_controller_the_entry_joins_the_record_as_it_is():
    session, report, entry = finished(on_controller=True)
    assert len(session.record.entries) == 1 and session.record.entries[0] is entry
    assert report.user_properties == []


def test_on_the_controller_the_model_its_source_loaded_joins_the_environment():
    session, _, _ = finished(on_controller=True)
    assert session.record.env["models"] == {"cot": MODEL}


def test_a_worker_sends_the_entry_as_plain_json_with_its_sources_model():
    _, report, entry = finished(on_controller=False)
    [(key, sent)] = report.user_properties
    assert key == RECORD_PROPERTY
    assert sent == {**entry.to_json(), "verdict": "replicated",
                    "model": {"source": "cot", "path": "/models/cot"}}
    assert type(sent["verdict"]) is str


def test_a_worker_sends_no_model_for_a_source_that_loaded_none():
    _, report, _ = finished(on_controller=False, model=None)
    assert report.user_properties[0][1]["model"] is None


def test_what_a_worker_sent_makes_the_same_entry_on_the_controller():
    _, report, entry = finished(on_controller=False)
    record = RecordBuilder({"models": {}})
    record.add(report.user_properties[0][1])
    assert record.entries == [entry]
    assert record.env["models"] == {"cot": {"source": "cot", "path": "/models/cot"}}


def test_an_anchor_that_ended_leaves_its_outcome_and_first_line():
    session = claims_session(item(declared()).config)
    session.anchor_ended("cot.a", "failed", "AssertionError: wrong\nmore detail")
    assert session.anchor_outcome("cot.a") == ("failed", "AssertionError: wrong")


def test_an_anchor_without_a_message_is_said_by_its_outcome():
    session = claims_session(item(declared()).config)
    session.anchor_ended("cot.a", "passed", "")
    assert session.anchor_outcome("cot.a") == ("passed", "passed")


def test_an_anchor_that_did_not_run_is_absent():
    session = claims_session(item(declared()).config)
    assert session.anchor_outcome("cot.a") == ("absent", "the anchor was not run in this session")


def test_forced_notes_are_those_of_the_fixtures_a_test_reads():
    session = claims_session(item(declared()).config)
    session.force("cot_usable", "cot_usable: none kept; 2 taken")
    session.force("cot_pairs", "cot_pairs: none kept; 2 taken")
    assert session.forced_notes(["cot_pairs", "cot_model"]) == ["cot_pairs: none kept; 2 taken"]


def test_a_test_reading_no_forced_fixture_has_no_notes():
    session = claims_session(item(declared()).config)
    session.force("cot_usable", "cot_usable: none kept; 2 taken")
    assert session.forced_notes(["cot_model"]) == []


def test_a_package_end_is_taken_once():
    session = claims_session(item(declared()).config)
    session.package_ended()
    assert session.take_package_end() is True
    assert session.take_package_end() is False


def test_no_package_end_is_taken_before_one_ended():
    assert claims_session(item(declared()).config).take_package_end() is False


def test_deselected_items_follow_the_selected_ones():
    session = claims_session(item(declared()).config)
    session.deselect(["b", "c"])
    assert session.with_deselected(["a"]) == ["a", "b", "c"]


def test_a_backend_reason_is_asked_once_per_source():
    session = claims_session(item(declared()).config)
    asked = []

    def reason() -> str:
        asked.append(1)
        return "not served"

    assert [session.backend_reason("cot", reason) for _ in range(2)] == ["not served"] * 2
    assert asked == [1]


def test_each_source_keeps_its_own_backend_reason():
    session = claims_session(item(declared()).config)
    session.backend_reason("cot", lambda: "outside traces")
    assert session.backend_reason("patching", lambda: None) is None


def test_the_controllers_store_directory_is_made_and_removed():
    session = claims_session(item(declared()).config)
    session.make_store_dir()
    made = session.store_dir
    assert made is not None and made.is_dir()
    session.remove_store_dir()
    assert not made.exists()


def test_a_worker_opens_the_store_in_the_controllers_directory(tmp_path):
    session = claims_session(item(declared()).config)
    session.open_store(tmp_path)
    assert session.store is not None and session.store_dir is None


def test_a_finished_tests_state_leaves_the_session():
    session, _, entry = finished(on_controller=True)
    assert entry.nodeid not in session.tests


def test_a_test_started_again_begins_with_a_fresh_state():
    session = claims_session(item(declared()).config)
    session.test_state("t").outcome = "failed"
    assert session.test_started("t").outcome == "passed" and session.test_state("t").outcome == "passed"


def test_a_tests_state_is_the_same_object_each_time_it_is_asked():
    session = claims_session(item(declared()).config)
    assert session.test_state("t") is session.test_state("t")
