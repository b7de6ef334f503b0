"""The plugin's run record: partial and complete runs, its schema, verdicts on the tiny profile."""
from __future__ import annotations

import json

import pytest

from harness.reporting.record import validate
from tests.integration.plugin_runs import (ANCHOR_FAILS, INTERRUPTED, MEASURES, PUBLISHED_ONLY,
                                           results, verdicts)

pytest_plugins = ["pytester"]


@pytest.mark.meta  # a process of its own: make test-meta
def test_interrupted_run_is_recorded_as_partial(tester):
    tester.makepyfile(test_m=INTERRUPTED)
    tester.runpytest_subprocess("--snapshot-update")
    run = results(tester)["run"]
    assert run["completed"] is False and run["interrupted"] is True
    assert "test_m.py::test_never_reached" in run["not_run"]
    history = list((tester.path / "reports" / "history").glob("*.json"))
    assert json.loads(history[0].read_text())["run"]["completed"] is False
    assert "partial run" in (tester.path / "reports" / "claims.html").read_text()


def test_complete_run_is_recorded_as_complete(tester):
    tester.makepyfile(test_m=MEASURES)
    tester.runpytest("--snapshot-update")
    assert results(tester)["run"] == {"completed": True, "exit_status": 0, "interrupted": False,
                                      "not_run": []}


def test_a_run_writes_its_page_beside_its_record(tester):
    tester.makepyfile(test_m=MEASURES)
    result = tester.runpytest("--snapshot-update")
    assert (tester.path / "reports" / "claims.html").is_file()
    result.stdout.fnmatch_lines(["report: *claims.html"])


def test_a_run_says_where_its_record_is_and_tallies_its_verdicts(tester):
    tester.makepyfile(test_m=MEASURES)
    result = tester.runpytest("--snapshot-update")
    result.stdout.fnmatch_lines(["claims: * (profile *)", "run record: *results.json"])


def test_a_run_without_its_page_writes_the_record_alone(tester):
    tester.makepyfile(test_m=MEASURES)
    result = tester.runpytest("--snapshot-update", "--no-page")
    assert results(tester)["run"]["completed"] is True
    assert not (tester.path / "reports" / "claims.html").exists()
    assert "report: " not in result.stdout.str()


def test_results_json_matches_its_schema(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    tester.runpytest("--snapshot-update")
    data = results(tester)
    assert validate(data) == []
    assert data["counts"]["all"] == {"anchor failed": 1, "blocked": 1, "replicated": 2}


def test_a_tiny_profile_finding_without_a_known_answer_is_not_applicable(tester):
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = tester.runpytest("--snapshot-update", "-m", "not hub", "--claims-profile=tiny")
    assert verdicts(tester)["cot.needs-gpu"] == ("not applicable", "")
    result.stdout.fnmatch_lines(["tiny profile: published values are for the notebooks' models*"])


def test_a_tiny_profile_anchor_that_passes_reads_held(tester):
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    tester.runpytest("--snapshot-update", "--claims-profile=tiny", "-k", "test_needs_tokenizer")
    assert verdicts(tester)["lookback.needs-tokenizer"] == ("held", "")


@pytest.mark.meta  # a process of its own: make test-meta (it sets torch's global state)
def test_a_profile_on_cuda_applies_and_records_deterministic_settings(tester, monkeypatch, tmp_path):
    import torch

    if not torch.cuda.is_available():
        pytest.skip("needs CUDA: the deterministic settings are applied only where a model runs "
                    "on it (harness.models.determinism.wanted, unit-tested on the CPU)")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    tester.runpytest_subprocess("--claims-profile=published", "-m", "hub")
    settings = results(tester)["environment"]["determinism"]
    assert settings["deterministic_algorithms"] and settings["cublas_workspace_config"] == ":4096:8"


def test_the_organisms_leave_torch_as_it_was(tester):
    tester.makepyfile(test_m=MEASURES)
    tester.runpytest("--snapshot-update")
    assert results(tester)["environment"]["determinism"]["deterministic_algorithms"] is False
