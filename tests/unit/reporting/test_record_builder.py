"""The run record as a session builds it (entries, counted work, whether it completed) and writes
it: whole or not at all, since a run killed mid-write must leave no half record."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from harness.reporting.record import (SCHEMA_VERSION, Entry, RecordBuilder, RunRecord, RunStatus,
                                      read_record)

STARTED = dt.datetime(2026, 11, 30, 6, 0, tzinfo=dt.timezone.utc)


def builder() -> RecordBuilder:
    return RecordBuilder({"profile": "tiny", "started": STARTED.isoformat(), "models": {}})


def raw(claim_id: str, verdict: str = "replicated", kind: str = "claim") -> dict:
    return {"id": claim_id, "kind": kind, "source": claim_id.split(".")[0], "verdict": verdict}


@pytest.mark.parametrize(("interrupted", "not_run", "completed"), [
    (False, [], True), (False, ["t.py::a"], False), (True, [], False)])
def test_a_run_completed_only_uninterrupted_with_every_selected_test_run(interrupted, not_run,
                                                                         completed):
    made = builder()
    made.finish(exit_status=0, interrupted=interrupted, not_run=not_run)
    assert made.run == RunStatus(completed, 0, interrupted, tuple(not_run))


def test_a_run_not_yet_finished_is_partial():
    assert builder().record(STARTED).run.partial


def test_an_entry_is_added_and_the_model_it_names_goes_to_the_environment():
    made = builder()
    model = {"source": "cot", "hf_id": "org/name"}
    made.add({**raw("cot.a"), "model": model})
    assert made.env["models"] == {"cot": model}
    assert made.entries == [Entry(id="cot.a", kind="claim", source="cot", verdict="replicated")]


def test_an_entry_without_a_model_leaves_the_environment_alone():
    made = builder()
    made.add(raw("cot.a"))
    assert made.env["models"] == {}


def test_work_counted_twice_for_a_step_adds_up():
    made = builder()
    made.add_work({"source": "cot", "step": "decode", "forwards": 2, "seconds": 0.5,
                   "worker": "gw0"})
    made.add_work({"source": "cot", "step": "decode", "forwards": 3, "seconds": 0.25,
                   "worker": "gw1"})
    made.add_work({"source": "cot", "step": "prefill", "forwards": 1, "seconds": 0.1,
                   "worker": "gw0"})
    assert made.work == {"cot": {"decode": {"forwards": 5, "seconds": 0.75, "worker": "gw0,gw1"},
                                 "prefill": {"forwards": 1, "seconds": 0.1, "worker": "gw0"}}}


def test_the_record_carries_the_run_its_entries_and_work_and_its_duration():
    made = builder()
    made.add(raw("cot.a"))
    made.add_work({"source": "cot", "step": "decode", "forwards": 2})
    made.work_check = {"cot": {"fails": False}}
    made.finish(exit_status=1, interrupted=False, not_run=[])
    record = made.record(STARTED + dt.timedelta(seconds=12.34))
    assert record == RunRecord(
        {"profile": "tiny", "started": STARTED.isoformat(), "models": {}, "duration_s": 12.3},
        RunStatus(True, 1, False, ()), (made.entries[0],), {"cot": {"decode": {"forwards": 2}}},
        {"cot": {"fails": False}})


def test_a_record_is_written_as_it_reads_back_in_folders_it_makes(tmp_path):
    made = builder()
    made.add(raw("cot.a"))
    path = tmp_path / "runs" / "nightly" / "results.json"
    written = made.write(path, STARTED)
    assert read_record(path).to_json() == written.to_json()
    assert path.read_text() == json.dumps(written.to_json(), indent=2) + "\n"


def test_a_write_cut_short_leaves_no_half_record(tmp_path, monkeypatch):
    def cut_short(self: Path, text: str) -> None:
        with self.open("w") as f:
            f.write(text[:10])
        raise OSError("no space left on device")

    made = builder()
    made.add(raw("cot.a"))
    monkeypatch.setattr(Path, "write_text", cut_short)
    with pytest.raises(OSError):
        made.write(tmp_path / "results.json", STARTED)
    assert list(tmp_path.iterdir()) == []


def test_a_record_without_its_blocks_reads_their_defaults():
    assert RunRecord.from_json({}) == RunRecord({}, RunStatus(), (), {}, {}, SCHEMA_VERSION)


def test_a_record_reads_its_run_block_work_and_schema():
    data = {"schema": 2, "environment": {"profile": "tiny"},
            "run": {"completed": False, "exit_status": 2, "interrupted": True,
                    "not_run": ["t.py::a"]},
            "tests": [raw("cot.a")], "work": {"cot": {}}, "work_check": {"cot": {"fails": True}}}
    assert RunRecord.from_json(data) == RunRecord(
        {"profile": "tiny"}, RunStatus(False, 2, True, ("t.py::a",)),
        (Entry.from_json(raw("cot.a")),), {"cot": {}}, {"cot": {"fails": True}}, 2)


def test_a_run_block_without_its_keys_reads_a_completed_run():
    assert RunRecord.from_json({"run": {}}).run == RunStatus(True, None, False, ())


def test_an_entry_reads_its_drift_and_snapshot_as_their_enums():
    entry = Entry.from_json({**raw("cot.a"), "drift": "drifted", "snapshot": "outside"})
    assert (entry.drift, entry.snapshot) == ("drifted", "outside")


def test_a_record_counts_verdicts_per_source_and_over_all():
    record = RunRecord.from_json({"tests": [raw("cot.a"), raw("cot.b", "blocked"),
                                            raw("heads.c")]})
    assert record.counts == {"cot": {"replicated": 1, "blocked": 1}, "heads": {"replicated": 1},
                             "all": {"replicated": 2, "blocked": 1}}


def test_entries_are_in_order_of_source_findings_first_then_id():
    record = RunRecord.from_json({"tests": [raw("heads.a"), raw("cot.b"), raw("cot.y", kind="anchor"),
                                            raw("cot.z", kind="anchor"), raw("cot.a")]})
    assert [e.id for e in record.in_order] == ["cot.a", "cot.b", "cot.y", "cot.z", "heads.a"]


def test_an_entry_is_found_by_its_id():
    record = RunRecord.from_json({"tests": [raw("cot.a"), raw("cot.b")]})
    assert (record.entry("cot.b").id, record.entry("cot.c")) == ("cot.b", None)


def test_a_record_started_when_its_environment_says():
    assert RunRecord.from_json({"environment": {"started": "then"}}).started == "then"


def test_a_record_writes_its_blocks_with_work_sorted_and_entries_in_order():
    record = RunRecord.from_json({
        "environment": {"profile": "tiny"}, "tests": [raw("cot.b"), raw("cot.a")],
        "work": {"heads": {"z": {"forwards": 1}, "a": {"forwards": 2}}, "cot": {}},
        "work_check": {"cot": {"fails": False}}})
    written = record.to_json()
    assert written == {"schema": SCHEMA_VERSION, "environment": {"profile": "tiny"},
                       "run": {"completed": True, "exit_status": None, "interrupted": False,
                               "not_run": []},
                       "counts": {"cot": {"replicated": 2}, "all": {"replicated": 2}},
                       "work": {"cot": {}, "heads": {"a": {"forwards": 2}, "z": {"forwards": 1}}},
                       "work_check": {"cot": {"fails": False}},
                       "tests": [e.to_json() for e in record.in_order]}
    assert (list(written["work"]), list(written["work"]["heads"])) == (["cot", "heads"],
                                                                       ["a", "z"])
