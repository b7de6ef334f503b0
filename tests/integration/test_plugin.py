"""The plugin's guarantees, checked on throw-away test files with pytester."""
from __future__ import annotations

import json

import pytest

from harness.record import validate

pytest_plugins = ["pytester"]

ANCHOR_FAILS = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.fake-claim", kind="claim", section="2", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"), requires=["cot.fake-anchor"])
def test_claim_first_in_file(judge):
    judge({"v": 1})

@claim("cot.fake-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_anchor(judge):
    assert False, "the machinery is broken"

@claim("cot.other-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_other_anchor(judge):
    judge({"v": 1})

@claim("cot.free-claim", kind="claim", section="2", needs="cpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"), requires=["cot.other-anchor"])
def test_free_claim(judge):
    judge({"v": 1})
'''

ANCHOR_CHAIN = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.upper-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"), requires=["cot.base-anchor"])
def test_upper_anchor(judge):
    judge({"v": 1})

@claim("cot.chained-claim", kind="claim", section="2", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"), requires=["cot.upper-anchor"])
def test_chained_claim(judge):
    judge({"v": 1})

@claim("cot.base-anchor", kind="anchor", section="1", needs="cpu", statement="s",
       published={}, provenance="p", criterion=Exact("v"))
def test_base_anchor(judge):
    judge({"v": 1})
'''

PUBLISHED_ONLY = '''
from harness.claims import claim
from harness.criteria import Exact

@claim("cot.needs-gpu", kind="claim", section="1", needs="gpu", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_gpu(judge):
    judge({"v": 1})

@claim("lookback.needs-tokenizer", kind="anchor", section="1", needs="hub", statement="s",
       published={"v": 1}, provenance="p", criterion=Exact("v"))
def test_hub(judge):
    judge({"v": 1})
'''

MEASURES = '''
import os
from harness.claims import Tolerance, claim
from harness.criteria import Exact

@claim("cot.measured", kind="measurement", section="3", needs="cpu", statement="s",
       published={"v": 0.5}, provenance="notebook", criterion=Exact("v"))
def test_measured(judge):
    judge({"v": float(os.environ.get("MEASURED", "0.5")), "n": 20})
'''


def results(pytester: pytest.Pytester) -> dict:
    return json.loads((pytester.path / "reports" / "results.json").read_text())


def verdicts(pytester: pytest.Pytester) -> dict[str, tuple[str, str]]:
    return {t["id"]: (t["verdict"], t["message"]) for t in results(pytester)["tests"]}


@pytest.fixture
def tester(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider --profile=tiny\n")
    return pytester


def test_failing_anchor_blocks_its_claim(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("--snapshot-update")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    verdict, message = verdicts(tester)["cot.fake-claim"]
    assert verdict == "blocked"
    assert message == "blocked by cot.fake-anchor: AssertionError: the machinery is broken"
    result.stdout.fnmatch_lines(["*blocked*cot.fake-claim*blocked by cot.fake-anchor*"])


def test_anchor_runs_first_whatever_the_file_order(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("-v", "--snapshot-update")
    result.stdout.re_match_lines([r".*test_anchor FAILED", r".*test_claim_first_in_file SKIPPED"])


def test_claim_selected_with_k_still_evaluates_its_anchor(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest("-k", "claim_first_in_file", "--snapshot-update")
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


def test_blocking_holds_under_xdist_with_k(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    result = tester.runpytest_subprocess("-n", "2", "-k", "claim_first_in_file", "--snapshot-update")
    result.assert_outcomes(failed=1, skipped=1)
    assert verdicts(tester)["cot.fake-claim"][0] == "blocked"


def test_gpu_test_skips_with_reason_on_published_profile(tester, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = tester.runpytest("--profile=published", "-m", "gpu", "-rs")
    result.assert_outcomes(skipped=1, deselected=1)
    result.stdout.fnmatch_lines(["*SKIPPED*no CUDA device*"])
    assert verdicts(tester)["cot.needs-gpu"] == ("skipped", "no CUDA device")


def test_hub_test_skips_with_reason_when_cache_is_cold(tester, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.delenv("HF_TOKEN", raising=False)
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = tester.runpytest_subprocess("-m", "hub", "-rs", "--profile=published")
    result.assert_outcomes(skipped=1, deselected=1)
    verdict, message = verdicts(tester)["lookback.needs-tokenizer"]
    assert verdict == "skipped"
    assert "meta-llama/Llama-3.1-8B-Instruct" in message and "HF_TOKEN" in message


def test_marker_selection_implies_published_profile(pytester, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pytester.makepyfile(test_claims=PUBLISHED_ONLY)
    result = pytester.runpytest("-p", "no:cacheprovider", "-m", "gpu")
    result.stdout.fnmatch_lines(["interp-claims profile: published"])
    assert results(pytester)["environment"]["profile"] == "published"


def test_new_snapshot_fails_until_pinned(tester):
    tester.makepyfile(test_m=MEASURES)
    tester.runpytest().assert_outcomes(failed=1)
    tester.runpytest("--snapshot-update").assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "new"
    tester.runpytest().assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "exact"


def pin_notebook_snapshot(tester: pytest.Pytester, value: float) -> None:
    path = tester.path / "snapshots" / "published" / "cot" / "test_measured.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"id": "cot.measured", "profile": "published",
                                "provenance": "printed by the notebook", "measured": {"v": value}}))


def with_tolerance(source: str, tol: str) -> str:
    return source.replace('criterion=Exact("v"))', f'criterion=Exact("v"), tolerance={tol})')


def test_snapshot_inside_tolerance_passes(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=0.1)"))
    pin_notebook_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--profile=published").assert_outcomes(failed=1)  # criterion: exact 0.5
    monkeypatch.setenv("MEASURED", "0.5")
    tester.runpytest("--profile=published").assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "exact"


def test_snapshot_within_tolerance_is_reported_as_such(tester, monkeypatch):
    source = with_tolerance(MEASURES, "Tolerance(abs=0.1)").replace('Exact("v")', 'Exact("n")') \
        .replace('published={"v": 0.5}', 'published={"v": 0.5, "n": 20}')
    tester.makepyfile(test_m=source)
    pin_notebook_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--profile=published").assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "within tolerance"


def test_snapshot_outside_tolerance_fails(tester, monkeypatch):
    source = with_tolerance(MEASURES, "Tolerance(abs=0.1)").replace('Exact("v")', 'Exact("n")') \
        .replace('published={"v": 0.5}', 'published={"v": 0.5, "n": 20}')
    tester.makepyfile(test_m=source)
    pin_notebook_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.7")
    result = tester.runpytest("--profile=published")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*left the snapshot's tolerance*"])
    assert results(tester)["tests"][0]["snapshot"] == "outside"


def test_tiny_profile_snapshots_are_exact(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=0.1)"))
    tester.runpytest("--snapshot-update")
    monkeypatch.setenv("MEASURED", "0.50001")
    tester.runpytest().assert_outcomes(failed=1)


def test_snapshot_update_never_touches_published_values(tester, monkeypatch):
    tester.makepyfile(test_m=MEASURES)
    monkeypatch.setenv("MEASURED", "0.25")
    tester.runpytest("--snapshot-update")
    pinned = json.loads((tester.path / "snapshots" / "tiny" / "cot" / "test_measured.json").read_text())
    assert pinned["measured"] == {"v": 0.25, "n": 20}
    assert "published" not in pinned
    assert 'published={"v": 0.5}' in (tester.path / "test_m.py").read_text()
    assert results(tester)["tests"][0]["published"] == {"v": 0.5}


def test_results_json_matches_its_schema(tester):
    tester.makepyfile(test_claims=ANCHOR_FAILS)
    tester.runpytest("--snapshot-update")
    data = results(tester)
    assert validate(data) == []
    assert data["counts"]["all"] == {"not replicated": 1, "blocked": 1, "replicated": 2}


def test_tiny_profile_claims_are_not_applicable(tester):
    tester.makepyfile(test_claims=PUBLISHED_ONLY)
    tester.runpytest("--snapshot-update", "-m", "not hub", "--profile=tiny")
    verdict, message = verdicts(tester)["cot.needs-gpu"]
    assert verdict == "not applicable"
    assert message == "not applicable (published values are for Qwen/Qwen3-4B-Thinking-2507)"
