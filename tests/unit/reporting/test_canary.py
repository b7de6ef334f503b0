"""harness.reporting.canary on fabricated pairs of run records: drift, verdict changes, versions, no change."""
from __future__ import annotations

import copy
import json

from harness.reporting import history as run_history
from harness.reporting.canary import canary_report, read_packages, summary_lines
from harness.reporting.record import RunRecord
from harness.reporting.report import render
from tests.sample_results import results


def _pair():
    locked = results()
    for e in locked["tests"]:
        e["tolerance"] = {"floats": {"abs": 1e-5, "rel": 1e-5}, "why": "organism default"}
    return locked, copy.deepcopy(locked)


def test_an_unchanged_run_reports_nothing():
    locked, canary = _pair()
    canary["tests"][2]["measured"]["correct_rate"][2] += 1e-7  # inside the tolerance
    report = canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary))
    assert report["unchanged"] is True
    assert report["drifted"] == report["verdict_changed"] == report["versions"] == []
    assert summary_lines(report)[0] == "canary: 0 versions differ, 0 claims drifted, 0 verdicts changed"


def test_a_value_outside_its_tolerance_drifted():
    locked, canary = _pair()
    canary["tests"][2]["measured"]["correct_rate"][3] = 0.55
    report = canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary))
    assert [d["id"] for d in report["drifted"]] == ["cot.early-answering"]
    assert report["drifted"][0]["differences"] == [".correct_rate[3]: pinned 0.5, measured 0.55"]
    assert report["verdict_changed"] == [] and report["unchanged"] is False


def test_an_integer_compares_exactly():
    locked, canary = _pair()
    canary["tests"][2]["measured"]["changed_by_cot"] = 19
    assert report_ids(canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary))["drifted"]) == ["cot.early-answering"]


def report_ids(rows):
    return [r["id"] for r in rows]


def test_a_changed_verdict_is_named_with_both_sides():
    locked, canary = _pair()
    canary["tests"][0]["verdict"] = "replicated"
    canary["tests"][0]["message"] = ""
    canary["tests"][1]["verdict"] = "error"
    canary["tests"][1]["message"] = "ImportError: cannot import name 'X' from 'nnsight'"
    report = canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary))
    assert report["verdict_changed"] == [
        {"id": "cot.full-corruption", "locked": "blocked", "canary": "error",
         "message": "ImportError: cannot import name 'X' from 'nnsight'"},
        {"id": "cot.verbatim-block-control", "locked": "not replicated", "canary": "replicated",
         "message": ""}]
    assert report["drifted"] == []


def test_version_differences_from_the_environment_and_the_package_lists(tmp_path):
    locked, canary = _pair()
    canary["environment"]["transformers"] = "5.25.0"
    (tmp_path / "locked.txt").write_text(
        "# pip-compile\nnumpy==2.4.6 \\\n    --hash=sha256:00 \\\n    # via x\n"
        "Typing_Extensions==4.16.0 \\\n    --hash=sha256:11\n")
    (tmp_path / "canary.txt").write_text(
        "numpy==2.5.0\ntyping-extensions==4.16.0\nrich==15.0.0\npip==26.3\n-e file:///x\n")
    report = canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary),
                           locked_packages=read_packages(tmp_path / "locked.txt"),
                           canary_packages=read_packages(tmp_path / "canary.txt"),
                           notes=["torch kept at the locked torch==2.13.0+cpu"])
    assert report["versions"] == [
        {"package": "transformers", "locked": "5.24.0", "canary": "5.25.0"},
        {"package": "numpy", "locked": "2.4.6", "canary": "2.5.0"},
        {"package": "rich", "locked": None, "canary": "15.0.0"}]
    assert report["drifted"] == report["verdict_changed"] == []
    assert report["notes"] == ["torch kept at the locked torch==2.13.0+cpu"]


def test_claims_in_one_run_only_and_unlike_profiles_are_reported():
    locked, canary = _pair()
    canary["tests"].pop()
    canary["environment"]["profile"] = "published"
    canary["run"]["completed"] = False
    report = canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary))
    assert report["only_locked"] == ["cot.early-answering"] and report["unchanged"] is False
    assert any("profiles differ" in p for p in report["problems"])
    assert "the canary run is partial" in report["problems"]


def test_the_page_shows_the_canary_section(tmp_path):
    locked, canary = _pair()
    canary["environment"]["nnsight"] = "0.9.0"
    canary["tests"][0]["verdict"] = "error"
    report = json.loads(json.dumps(canary_report(RunRecord.from_json(locked), RunRecord.from_json(canary), notes=["torch kept"])))
    page = render(RunRecord.from_json(locked), run_history.load(tmp_path / "history"), canary=report)
    assert 'id="canary"' in page and "0.9.0" in page and "torch kept" in page
    assert "cot.verbatim-block-control" in page.split('id="canary"')[1]
    assert 'id="canary"' not in render(RunRecord.from_json(locked), run_history.load(tmp_path / "history"))
