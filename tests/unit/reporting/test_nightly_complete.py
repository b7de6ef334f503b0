"""The nightly's `complete` guard over run records: a run is whole only when it wrote its record,
ran to its end, and nothing crashed (any kind of test, in any phase), no anchor failed and no
finding was blocked or skipped; and its preflight, which says why CUDA is unusable."""
from __future__ import annotations

import json
import sys

import pytest

from harness.reporting import nightly
from harness.reporting.nightly import cuda_problem, driver_version, incomplete, main, untested
from harness.reporting.record import Entry, RunRecord, RunStatus
from harness.verdicts import Verdict


WHOLE = RunStatus()


def run_of(*tests: Entry, run: RunStatus = WHOLE) -> RunRecord:
    return RunRecord({}, run, tests)


def entry(claim_id: str, verdict: str, kind: str = "claim", message: str = "") -> Entry:
    return Entry(id=claim_id, kind=kind, verdict=Verdict(verdict), message=message)

JUDGED = entry("cot.judged", "replicated")


@pytest.mark.parametrize("kind", ["claim", "measurement", "anchor"])
def test_an_error_of_any_kind_is_incomplete(kind):
    assert "cot.x" in incomplete(run_of(JUDGED, entry("cot.x", "error", kind, "ValueError: x")))


def test_a_finding_that_crashed_is_named_with_its_message():
    assert incomplete(run_of(JUDGED, entry("cot.x", "error", message="ValueError: x"))) == (
        "incomplete: 1 findings not judged: cot.x error (ValueError: x)")


def test_an_anchor_that_failed_is_named_with_its_message():
    assert incomplete(run_of(JUDGED, entry("cot.a", "anchor failed", "anchor", "broken"))) == (
        "incomplete: 1 anchors failed or crashed: cot.a (broken)")


@pytest.mark.parametrize("verdict", ["blocked", "skipped"])
def test_a_finding_blocked_or_skipped_is_incomplete(verdict):
    assert incomplete(run_of(JUDGED, entry("cot.x", verdict, message="why"))) == (
        f"incomplete: 1 findings not judged: cot.x {verdict} (why)")


def test_an_anchor_skipped_or_blocked_is_no_reason_of_its_own():
    assert incomplete(run_of(JUDGED, entry("cot.a", "skipped", "anchor"),
                             entry("cot.b", "blocked", "anchor"))) is None


def test_a_whole_run_is_complete():
    assert incomplete(run_of(JUDGED, entry("cot.n", "not replicated"))) is None


def test_an_interrupted_run_says_so_and_counts_what_never_ran():
    run = RunStatus(False, 2, True, ("t.py::a", "t.py::b"))
    assert incomplete(run_of(JUDGED, run=run)) == (
        "incomplete: the run was interrupted: 2 selected tests never ran")


def test_a_run_whose_selected_tests_did_not_all_run_is_incomplete():
    run = RunStatus(False, 0, False, ("t.py::a",))
    assert incomplete(run_of(JUDGED, run=run)) == "incomplete: 1 selected tests never ran"


def test_every_reason_is_given_each_cut_to_200_characters():
    run = RunStatus(False, 2, True, ("t.py::a",))
    problem = incomplete(run_of(entry("cot.a", "error", "anchor", "m" * 300),
                                entry("cot.x", "blocked", message="b" * 300), run=run))
    assert problem == ("incomplete: the run was interrupted: 1 selected tests never ran | "
                       f"1 anchors failed or crashed: {('cot.a (' + 'm' * 300)[:200]} | "
                       f"1 findings not judged: {('cot.x blocked (' + 'b' * 300)[:200]}")


def test_several_findings_are_counted_and_joined():
    problem = incomplete(run_of(entry("cot.x", "error", message="e"),
                                entry("cot.y", "skipped", message="s")))
    assert problem == "incomplete: 2 findings not judged: cot.x error (e); cot.y skipped (s)"


def test_several_anchors_are_counted_and_joined():
    problem = incomplete(run_of(JUDGED, entry("cot.a", "anchor failed", "anchor", "a"),
                                entry("cot.b", "error", "anchor", "b")))
    assert problem == "incomplete: 2 anchors failed or crashed: cot.a (a); cot.b (b)"


def test_a_run_that_measured_nothing_is_untested_with_up_to_three_reasons():
    tests = [entry(f"cot.{i}", "skipped", message=f"reason {i % 4}") for i in range(6)]
    assert untested(run_of(*tests)) == ("no published test ran: 6 tests, none measured; e.g. "
                                        "reason 0 | reason 1 | reason 2")


def test_a_run_of_no_test_is_untested():
    assert untested(run_of()) == "no published test ran: 0 tests, none measured"


def test_a_run_that_measured_something_is_tested():
    assert untested(run_of(entry("cot.x", "error"), JUDGED)) is None


def write(tmp_path, *tests: dict) -> str:
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"tests": list(tests)}))
    return str(path)


def test_complete_passes_a_whole_run_saying_so(tmp_path, capsys):
    path = write(tmp_path, {"id": "cot.x", "verdict": "replicated"})
    assert main(["complete", path]) == 0
    assert capsys.readouterr().out == "complete: every finding was judged and every anchor held\n"


def test_complete_fails_a_run_with_a_crash_saying_why(tmp_path, capsys):
    path = write(tmp_path, {"id": "cot.x", "verdict": "replicated"},
                 {"id": "cot.y", "verdict": "error", "message": "ValueError: y"})
    assert main(["complete", path]) == 1
    assert capsys.readouterr().out == (
        "incomplete: 1 findings not judged: cot.y error (ValueError: y)\n")


def test_complete_fails_a_run_that_wrote_no_record(tmp_path, capsys):
    missing = str(tmp_path / "results.json")
    assert main(["complete", missing]) == 1
    assert capsys.readouterr().out == (
        f"incomplete: no run record at {missing} (the run wrote none: killed before its end, "
        "or its write failed)\n")


def test_complete_reads_the_command_line(tmp_path, monkeypatch):
    path = write(tmp_path, {"id": "cot.x", "verdict": "error"})
    monkeypatch.setattr(sys, "argv", ["nightly", "complete", path])
    assert main() == 1


@pytest.mark.parametrize("args", [[], ["complete"], ["complete", "a", "b"], ["other"]])
def test_anything_else_prints_the_usage_and_exits_2(args, capsys):
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2 and "usage:" in capsys.readouterr().err


def test_help_describes_each_guard_and_exits_0(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "preflight" in out and "complete" in out


def test_preflight_fails_on_unusable_cuda_naming_the_driver_against_torchs_cuda(monkeypatch,
                                                                                capsys):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    monkeypatch.setattr(nightly, "driver_version", lambda: "550.54.15")
    assert main(["preflight"]) == 1
    assert capsys.readouterr().out == (
        "CUDA unusable: the driver 550.54.15 is older than CUDA 13.0 (the lock's torch) needs: "
        "580.65.6 or newer\n")


def test_preflight_passes_on_usable_cuda_naming_the_device(monkeypatch, capsys):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index: f"H200 #{index}")
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    monkeypatch.setattr(nightly, "driver_version", lambda: "580.82.07")
    assert main(["preflight"]) == 0
    assert capsys.readouterr().out == "CUDA usable: H200 #0 (torch CUDA 13.0)\n"


def test_a_cpu_build_of_torch_is_named_with_the_command_that_installs_the_cuda_lock():
    assert cuda_problem(False, None, "580.82.07") == (
        "the installed torch is a CPU build: install the CUDA lock "
        "(make setup LOCK=requirements-cuda.lock)")


def test_no_driver_is_named_against_the_cuda_torch_needs():
    assert cuda_problem(False, "13.0", None) == (
        "torch needs CUDA 13.0, and nvidia-smi reports no driver")


def test_a_driver_new_enough_that_still_finds_no_device_is_named():
    assert cuda_problem(False, "13.0", "580.65.06") == (
        "torch (CUDA 13.0) finds no usable device with driver 580.65.06")


def test_a_cuda_version_of_unknown_needs_names_the_driver():
    assert cuda_problem(False, "11.8", "450.1") == (
        "torch (CUDA 11.8) finds no usable device with driver 450.1")


def test_an_old_driver_is_compared_part_by_part():
    assert cuda_problem(False, "12.4", "525.60.12").startswith("the driver 525.60.12 is older")
    assert cuda_problem(False, "12.4", "525.60.13") == (
        "torch (CUDA 12.4) finds no usable device with driver 525.60.13")


def fake_smi(tmp_path, script: str) -> str:
    smi = tmp_path / "nvidia-smi"
    smi.write_text(f"#!/bin/sh\n{script}\n")
    smi.chmod(0o755)
    return str(smi)


def test_the_driver_version_is_the_first_nvidia_smi_prints_when_asked_for_it(tmp_path):
    smi = fake_smi(tmp_path, '[ "$*" = "--query-gpu=driver_version --format=csv,noheader" ] && '
                             'echo 580.82.07 && echo 570.1')
    assert driver_version(smi) == "580.82.07"


def test_the_driver_version_is_asked_of_the_nvidia_smi_on_the_path(tmp_path, monkeypatch):
    fake_smi(tmp_path, "echo 580.82.07")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert driver_version() == "580.82.07"


def test_nvidia_smi_failing_or_printing_nothing_or_missing_reads_no_driver(tmp_path):
    assert driver_version(fake_smi(tmp_path, "echo 580.82.07; exit 9")) is None
    assert driver_version(fake_smi(tmp_path, "true")) is None
    assert driver_version(str(tmp_path / "absent")) is None


def test_an_inconclusive_finding_is_judged_so_the_run_is_complete():
    assert incomplete(run_of(JUDGED, entry("cot.i", "inconclusive"))) is None


def test_inconclusive_findings_are_named():
    assert nightly.inconclusive(run_of(JUDGED, entry("cot.i", "inconclusive"),
                                       entry("cot.j", "inconclusive"))) == (
        "2 findings inconclusive (their criterion accepts no effect too): cot.i, cot.j")
    assert nightly.inconclusive(run_of(JUDGED)) is None


def test_complete_names_the_inconclusive_findings_and_passes(tmp_path, capsys):
    record = tmp_path / "results.json"
    record.write_text(json.dumps({"tests": [
        {"id": "cot.judged", "verdict": "replicated", "message": ""},
        {"id": "cot.i", "verdict": "inconclusive", "message": "inconclusive: ..."}]}))
    assert main(["complete", str(record)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "1 findings inconclusive (their criterion accepts no effect too): cot.i")
