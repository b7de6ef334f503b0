"""The plugin's ordering and blocking, and the profile and resource skips, on throw-away files."""
from __future__ import annotations

import pytest

from tests.integration.plugin_runs import (ANCHOR_CHAIN, ANCHOR_FAILS, PUBLISHED_ONLY, results,
                                           verdicts)

pytest_plugins = ["pytester"]


def test_failing_anchor_blocks_its_claim(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("--snapshot-update")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    verdict, message = verdicts(tester)["cot.fake-claim"]
    assert verdict == "blocked"
    assert message == ("blocked by cot.fake-anchor: cot.fake-anchor not replicated: v: measured 2, "
                       "published 1")
    result.stdout.fnmatch_lines(["*blocked*cot.fake-claim*blocked by cot.fake-anchor*"])


def test_anchor_runs_first_whatever_the_file_order(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("-v", "--snapshot-update")
    result.stdout.re_match_lines([r".*test_fake_anchor FAILED", r".*test_fake_claim SKIPPED"])


def test_claim_selected_with_k_still_evaluates_its_anchor(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("-k", "fake_claim", "--snapshot-update")
    result.assert_outcomes(failed=1, skipped=1)
    assert verdicts(tester)["cot.fake-claim"][0] == "blocked"


def test_anchors_that_require_anchors_run_in_dependency_order(tester):
    tester.makepyfile(test_claims=ANCHOR_CHAIN)
    result = tester.runpytest("-v", "-k", "chained_claim", "--snapshot-update")
    result.assert_outcomes(passed=3)
    result.stdout.re_match_lines([r".*test_base_anchor PASSED", r".*test_upper_anchor PASSED",
                                  r".*test_chained_claim PASSED"])


def test_passing_anchor_lets_its_claim_run(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    tester.runpytest("-k", "free_claim", "--snapshot-update")
    assert verdicts(tester)["cot.free-claim"][0] == "replicated"


def test_blocking_holds_under_xdist(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest_subprocess("-n", "2", "--snapshot-update")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    assert verdicts(tester)["cot.fake-claim"][0] == "blocked"


@pytest.mark.meta  # three pytest processes: make test-meta (test_blocking_holds_under_xdist stays)
def test_blocking_holds_under_xdist_with_k(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest_subprocess("-n", "2", "-k", "fake_claim", "--snapshot-update")
    result.assert_outcomes(failed=1, skipped=1)
    assert verdicts(tester)["cot.fake-claim"][0] == "blocked"


def test_gpu_test_skips_with_reason_on_published_profile(tester, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = tester.runpytest("--claims-profile=published", "-m", "gpu and not hub", "-rs")
    result.assert_outcomes(skipped=1, deselected=1)
    result.stdout.fnmatch_lines(["*SKIPPED*no CUDA device*"])
    assert verdicts(tester)["cot.needs-gpu"] == ("skipped", "no CUDA device")


@pytest.mark.meta  # a process of its own: make test-meta
def test_hub_test_skips_with_reason_when_cache_is_cold(tester, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_TOKEN_PATH", str(tmp_path / "no-stored-token"))
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = tester.runpytest_subprocess("-m", "hub", "-rs", "--claims-profile=published")
    result.assert_outcomes(skipped=1, deselected=1)
    verdict, message = verdicts(tester)["lookback.needs-tokenizer"]
    assert verdict == "skipped"
    assert "meta-llama/Llama-3.1-8B-Instruct" in message and "HF_TOKEN" in message


def test_marker_selection_implies_published_profile(pytester, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pytester.makepyfile(test_claims=PUBLISHED_ONLY)
    pytester.makeini("[pytest]\ninterp_claims = true\n")  # a project of its own claims
    result = pytester.runpytest("-p", "no:cacheprovider", "-m", "gpu")
    result.stdout.fnmatch_lines(["interp-claims profile: published, mode: faithful"])
    assert results(pytester)["environment"]["profile"] == "published"


THREE_SOURCES = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.gpu-probe", kind="measurement", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"))
def test_gpu_probe(judge):
    judge({"v": 1})

@claim("heads.gpu-probe", kind="measurement", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"))
def test_gpu_probe(judge):
    judge({"v": 1})

@claim("lookback.gpu-probe", kind="measurement", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"))
def test_gpu_probe(judge):
    judge({"v": 1})
'''


def three_source_folders(tester) -> None:
    """claims/<source>/test_<source>.py for cot, heads and lookback, one claim each."""
    part = THREE_SOURCES.split("@claim")
    for source in ("cot", "heads", "lookback"):
        folder = tester.path / "claims" / source
        folder.mkdir(parents=True)
        body = part[0] + "@claim" + next(p for p in part[1:] if f'"{source}.' in p)
        (folder / f"test_{source}.py").write_text(body)


@pytest.mark.meta  # four pytest processes: make test-meta
def test_each_xdist_worker_gets_its_own_gpu(tester):
    three_source_folders(tester)
    tester.runpytest("--snapshot-update", "-n", "3", "--gpus=0,1,2,3,4,5").assert_outcomes(passed=3)
    gpus = {e["id"]: e["gpu"] for e in results(tester)["tests"]}
    assert sorted(gpus.values()) == ["0,3", "1,4", "2,5"]


def test_collect_only_shows_each_tests_worker_group(tester):
    three_source_folders(tester)
    result = tester.runpytest("--collect-only", "-q")
    result.stdout.fnmatch_lines(["worker groups (one xdist worker each): claims/cot (1), "
                                 "claims/heads (1), claims/lookback (1)"])


@pytest.mark.meta  # a process of its own: make test-meta
def test_the_nightlys_gpu_selection_includes_seed_004(tester):
    """`pytest -m gpu claims/` is the nightly: it must list patching's weight-loading tests,
    though GPT-2 runs on the CPU (they are marked hub and gpu)."""
    import subprocess
    import sys

    from tests.paths import ROOT

    proc = subprocess.run([sys.executable, "-m", "pytest", "-m", "gpu", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "claims/patching"], cwd=ROOT,
                          capture_output=True, text=True)
    assert "claims/patching/test_activation_patching.py::test_layer_flip" in proc.stdout
    assert "claims/patching/test_fire_once.py::test_layer_flip_fires_once" in proc.stdout
