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


def pin_published_snapshot(tester: pytest.Pytester, value: float) -> None:
    """A published snapshot as a measured run writes it."""
    path = tester.path / "snapshots" / "published" / "cot" / "test_measured.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"id": "cot.measured", "profile": "published",
                                "provenance": "measured by interp-claims on the published profile",
                                "measured": {"v": value, "n": 20}}))


def with_tolerance(source: str, tol: str) -> str:
    return source.replace('criterion=Exact("v"))', f'criterion=Exact("v"), tolerance={tol})')


def judged_on_n(source: str) -> str:
    """The claim judged on its count, so its float is free to drift."""
    return source.replace('Exact("v")', 'Exact("n")').replace('published={"v": 0.5}',
                                                              'published={"v": 0.5, "n": 20}')


def entry(tester: pytest.Pytester) -> dict:
    return results(tester)["tests"][0]


def test_snapshot_inside_tolerance_passes(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=0.1)"))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--profile=published").assert_outcomes(failed=1)  # criterion: exact 0.5
    assert entry(tester)["verdict"] == "not replicated"
    monkeypatch.setenv("MEASURED", "0.5")
    tester.runpytest("--profile=published").assert_outcomes(passed=1)
    assert (entry(tester)["snapshot"], entry(tester)["drift"]) == ("exact", "no drift")


def test_snapshot_within_tolerance_is_reported_as_such(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--profile=published").assert_outcomes(passed=1)
    assert (entry(tester)["snapshot"], entry(tester)["drift"]) == ("within tolerance", "no drift")


def test_published_drift_is_shown_but_never_changes_the_verdict(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.7")
    result = tester.runpytest("--profile=published")
    result.assert_outcomes(passed=1)
    e = entry(tester)
    assert (e["verdict"], e["drift"], e["snapshot"]) == ("replicated", "drifted", "outside")
    assert e["drift_detail"] == [".v: pinned 0.5, measured 0.7"]
    result.stdout.fnmatch_lines(["replicated · drifted*cot.measured*"])


def test_fail_on_drift_fails_the_test_and_keeps_the_verdict(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.7")
    result = tester.runpytest("--profile=published", "--fail-on-drift")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*drifted from its snapshot*"])
    assert (entry(tester)["verdict"], entry(tester)["drift"]) == ("replicated", "drifted")


def test_published_counts_compare_exactly(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=5)"))
    pin_published_snapshot(tester, 0.5)
    path = tester.path / "snapshots" / "published" / "cot" / "test_measured.json"
    path.write_text(path.read_text().replace('"n": 20', '"n": 21'))
    tester.runpytest("--profile=published").assert_outcomes(passed=1)
    assert entry(tester)["drift_detail"] == [".n: pinned 21, measured 20"]


ON_ORGANISM = MEASURES.replace('needs="cpu"', 'needs="gpu"')


def test_tiny_floats_compare_within_the_organism_default(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(ON_ORGANISM, "Tolerance(abs=0.1)"))
    tester.runpytest("--snapshot-update")
    monkeypatch.setenv("MEASURED", "0.5000001")
    tester.runpytest().assert_outcomes(passed=1)
    e = entry(tester)
    assert (e["snapshot"], e["drift"]) == ("within tolerance", "no drift")
    assert e["tolerance"]["floats"] == {"abs": 1e-05, "rel": 1e-05}
    assert e["tolerance"]["why"] == "default for float32 organisms across CPU kernels"


def test_tiny_drift_fails_the_test_but_is_never_not_replicated(tester, monkeypatch):
    tester.makepyfile(test_m=ON_ORGANISM)
    tester.runpytest("--snapshot-update")
    monkeypatch.setenv("MEASURED", "0.5001")
    result = tester.runpytest()
    result.assert_outcomes(failed=1)
    e = entry(tester)
    assert (e["verdict"], e["drift"]) == ("not applicable", "drifted")
    assert e["message"].startswith("harness.verdicts.SnapshotDrift: cot.measured: drifted")
    result.stdout.fnmatch_lines(["not applicable · drifted*cot.measured*drifted from its snapshot*"])


def test_a_claim_may_widen_its_organism_tolerance_with_a_reason(tester, monkeypatch):
    tester.makepyfile(test_m=ON_ORGANISM.replace(
        'criterion=Exact("v"))', 'criterion=Exact("v"), organism_tolerance=Tolerance(abs=1e-3), '
        'organism_tolerance_reason="rounded to 3 places")'))
    tester.runpytest("--snapshot-update")
    monkeypatch.setenv("MEASURED", "0.5005")
    tester.runpytest().assert_outcomes(passed=1)
    assert entry(tester)["tolerance"]["why"] == "rounded to 3 places"


def test_truncated_snapshot_is_an_error_naming_the_file(tester):
    tester.makepyfile(test_m=MEASURES)
    tester.runpytest("--snapshot-update")
    path = tester.path / "snapshots" / "tiny" / "cot" / "test_measured.json"
    path.write_text(path.read_text()[:40])
    result = tester.runpytest()
    result.assert_outcomes(failed=1)
    e = entry(tester)
    assert e["verdict"] == "error"
    assert str(path) in e["message"] and "--snapshot-update" in e["message"]


INTERRUPTED = MEASURES + '''

def test_interrupt():
    import os, signal
    os.kill(os.getpid(), signal.SIGINT)


def test_never_reached():
    pass
'''


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
