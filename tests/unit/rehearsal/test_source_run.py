"""One source's rehearsal run: it writes its record but no page, keeps what it streamed when cut
off, and fails on a hole or where it reached no verdict."""
from __future__ import annotations

import json
import subprocess

import pytest

from harness.rehearsal.source_run import EXPECTED_SKIPS, holes, run_ok, run_source, streamed


class Started(Exception):
    """Raised in place of starting the run's pytest process."""


def test_a_sources_run_writes_its_record_but_no_page(tmp_path, monkeypatch):
    started = {}

    def popen(args, **kwargs):
        started["args"] = args
        raise Started

    monkeypatch.setattr(subprocess, "Popen", popen)
    with pytest.raises(Started):
        run_source("patching", tmp_path / "hf", "rehearsal", tmp_path / "run", 60)
    assert "--no-page" in started["args"] and f"--results={tmp_path / 'run' / 'results.json'}" \
        in started["args"]


def test_a_run_cut_off_keeps_the_tests_it_streamed(tmp_path):
    stream = tmp_path / "tests.jsonl"
    entry = {"id": "cot.fire-once", "source": "cot", "verdict": "not applicable"}
    work = {"source": "cot", "step": "cot_baseline", "seconds": 1.0, "forwards": 4}
    stream.write_text(json.dumps({"entry": entry}) + "\n" + json.dumps({"work": work}) + "\n"
                      + '{"entry": {"id": "cot.cut')
    record = streamed(stream)
    assert [t.id for t in record.tests] == ["cot.fire-once"] and not record.run.completed
    assert record.work["cot"]["cot_baseline"]["forwards"] == 4


def test_a_behavioural_skip_is_a_hole_and_fails_the_run():
    tests = [{"id": "heads.kv-groups", "verdict": "not applicable", "message": ""},
             {"id": "heads.breakages", "verdict": "skipped",
              "message": EXPECTED_SKIPS[0] + " ..."},
             {"id": "heads.retrieval", "verdict": "skipped", "message": "no block selected"}]
    run = {"exit_status": 0, "timed_out": False, "errors": [], "ran": 1, "holes": holes(tests)}
    assert run["holes"] == ["heads.retrieval: skipped: no block selected"] and not run_ok(run)
    assert run_ok(run | {"holes": holes(tests[:2])})


def test_a_run_that_reached_no_verdict_fails():
    assert not run_ok({"exit_status": 0, "timed_out": False, "errors": [], "ran": 0, "holes": []})
