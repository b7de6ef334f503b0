"""The nightly's guards: CUDA unusable fails before the run, saying why; a run that measured no
published test fails after it; a claim that does not replicate is a result; the help says so."""
from __future__ import annotations

import json

import pytest

from harness.reporting import nightly
from harness.reporting.nightly import cuda_problem, incomplete, main, untested
from harness.reporting.record import read_record


def test_usable_cuda_passes():
    assert cuda_problem(True, "13.0", "580.82.07") is None


def test_a_cpu_build_of_torch_names_the_cuda_lock():
    assert "requirements-cuda.lock" in cuda_problem(False, None, "580.82.07")


def test_an_old_driver_is_named_against_what_the_lock_needs():
    problem = cuda_problem(False, "13.0", "550.54.15")
    assert "550.54.15" in problem and "580.65.6" in problem


def test_a_run_whose_tests_all_skip_fails(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"tests": [
        {"id": "cot.baseline-accuracy", "verdict": "skipped", "message": "no CUDA device"},
        {"id": "cot.full-corruption", "verdict": "blocked", "message": "blocked by cot.setup"}]}))
    assert untested(read_record(path)) is not None
    assert main(["complete", str(path)]) == 1


def test_a_claim_that_does_not_replicate_is_a_result(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"tests": [
        {"id": "cot.baseline-accuracy", "verdict": "not replicated", "message": ""}]}))
    assert main(["complete", str(path)]) == 0


def record_of(tmp_path, tests: list[dict]):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"tests": tests}))
    return path


def test_a_finding_blocked_by_a_skipped_anchor_reads_incomplete_and_fails(tmp_path):
    path = record_of(tmp_path, [
        {"id": "cot.setup", "kind": "anchor", "verdict": "skipped", "message": "no tokenizer"},
        {"id": "cot.baseline-accuracy", "kind": "claim", "verdict": "replicated", "message": ""},
        {"id": "cot.full-corruption", "kind": "claim", "verdict": "blocked",
         "message": "blocked by cot.setup"}])
    problem = incomplete(read_record(path))
    assert problem.startswith("incomplete") and "cot.full-corruption blocked" in problem
    assert main(["complete", str(path)]) == 1


def test_a_failed_anchor_reads_incomplete(tmp_path):
    path = record_of(tmp_path, [
        {"id": "cot.self-patch", "kind": "anchor", "verdict": "anchor failed", "message": "x"},
        {"id": "cot.baseline-accuracy", "kind": "claim", "verdict": "replicated", "message": ""}])
    assert "cot.self-patch" in incomplete(read_record(path))


def test_an_optional_anchor_that_skipped_blocks_nothing_and_the_run_is_complete(tmp_path):
    path = record_of(tmp_path, [
        {"id": "patching.transformerlens-crosscheck", "kind": "anchor", "verdict": "skipped",
         "message": "transformer-lens is not installed"},
        {"id": "patching.layer-flip", "kind": "claim", "verdict": "not replicated", "message": ""}])
    assert incomplete(read_record(path)) is None
    assert main(["complete", str(path)]) == 0


def shown_help(capsys, *args: str) -> str:
    """What `--help` prints, its whitespace as one space (argparse wraps it to the terminal)."""
    with pytest.raises(SystemExit) as done:
        nightly.main([*args, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_help_says_what_each_guard_does(capsys):
    shown = shown_help(capsys)
    assert "The nightly's guards: CUDA usable before the run, the run complete after it." in shown
    assert "preflight fail, saying why, where CUDA is unusable" in shown
    assert ("complete fail where the run is not a whole replication; name the inconclusive "
            "findings") in shown


def test_the_complete_guards_help_names_the_record_it_reads(capsys):
    assert "record the run record (reports/results.json)" in shown_help(capsys, "complete")
