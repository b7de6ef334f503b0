"""The typed run record: JSON at the edge, the same document back."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from harness.reporting.record import Entry, RecordBuilder, RunRecord, validate
from harness.verdicts import Drift, Verdict
from tests.sample_results import results


def test_a_record_reads_and_writes_the_same_document():
    data = json.loads(json.dumps(results()))
    written = RunRecord.from_json(data).to_json()
    back = {e["id"]: e for e in written["tests"]}
    assert all({k: back[e["id"]][k] for k in e} == e for e in data["tests"])
    assert written["counts"] == data["counts"] and written["run"] == data["run"]


def test_entries_carry_the_verdict_and_drift_enums():
    record = RunRecord.from_json(results())
    entry = record.entry("cot.early-answering")
    assert entry.verdict is Verdict.NOT_APPLICABLE and entry.drift is Drift.NONE


def test_an_older_entry_takes_the_defaults_of_the_fields_it_lacks():
    entry = Entry.from_json({"id": "cot.x", "verdict": "replicated"})
    assert (entry.headline, entry.forced, entry.drift) == (None, None, None)


def test_a_record_without_a_run_block_completed():
    assert not RunRecord.from_json({"tests": []}).run.partial


def test_validate_names_an_unknown_verdict():
    data = results()
    data["tests"][0]["verdict"] = "passed"
    assert validate(data) == ["cot.verbatim-block-control: unknown verdict 'passed'"]


def test_a_value_json_has_no_type_for_is_written_as_its_text(tmp_path):
    entry = Entry.from_json(results()["tests"][0])
    builder = RecordBuilder({"models": {}, "started": "2026-01-01T00:00:00+00:00"})
    builder.add_entry(entry, {"source": entry.source, "weights": Path("/models/w")})
    builder.write(tmp_path / "results.json", dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))
    written = json.loads((tmp_path / "results.json").read_text())
    assert written["environment"]["models"][entry.source]["weights"] == "/models/w"
    assert written["tests"][0]["id"] == entry.id
