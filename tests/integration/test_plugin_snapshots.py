"""The plugin's snapshots: pinning, tolerance by kind, drift beside the verdict, unreadable pins."""
from __future__ import annotations

import json

from tests.integration.plugin_runs import (MEASURES, entry, judged_on_n, pin_published_snapshot,
                                           results, with_tolerance)

pytest_plugins = ["pytester"]


def test_new_snapshot_fails_until_pinned(tester):
    tester.makepyfile(test_m=MEASURES)
    tester.runpytest().assert_outcomes(failed=1)
    tester.runpytest("--snapshot-update").assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "new"
    tester.runpytest().assert_outcomes(passed=1)
    assert results(tester)["tests"][0]["snapshot"] == "exact"


def test_snapshot_inside_tolerance_passes(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=0.1)"))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--claims-profile=published").assert_outcomes(failed=1)  # criterion: exact 0.5
    assert entry(tester)["verdict"] == "not replicated"
    monkeypatch.setenv("MEASURED", "0.5")
    tester.runpytest("--claims-profile=published").assert_outcomes(passed=1)
    assert (entry(tester)["snapshot"], entry(tester)["drift"]) == ("exact", "no drift")


def test_snapshot_within_tolerance_is_reported_as_such(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.55")
    tester.runpytest("--claims-profile=published").assert_outcomes(passed=1)
    assert (entry(tester)["snapshot"], entry(tester)["drift"]) == ("within tolerance", "no drift")


def test_published_drift_is_shown_but_never_changes_the_verdict(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.7")
    result = tester.runpytest("--claims-profile=published")
    result.assert_outcomes(passed=1)
    e = entry(tester)
    assert (e["verdict"], e["drift"], e["snapshot"]) == ("replicated", "drifted", "outside")
    assert e["drift_detail"] == [".v: pinned 0.5, measured 0.7"]
    result.stdout.fnmatch_lines(["replicated · drifted*cot.measured*"])


def test_fail_on_drift_fails_the_test_and_keeps_the_verdict(tester, monkeypatch):
    tester.makepyfile(test_m=judged_on_n(with_tolerance(MEASURES, "Tolerance(abs=0.1)")))
    pin_published_snapshot(tester, 0.5)
    monkeypatch.setenv("MEASURED", "0.7")
    result = tester.runpytest("--claims-profile=published", "--fail-on-drift")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*drifted from its snapshot*"])
    assert (entry(tester)["verdict"], entry(tester)["drift"]) == ("replicated", "drifted")


def test_published_counts_compare_exactly(tester, monkeypatch):
    tester.makepyfile(test_m=with_tolerance(MEASURES, "Tolerance(abs=5)"))
    pin_published_snapshot(tester, 0.5)
    path = tester.path / "snapshots" / "published" / "cot" / "test_measured.json"
    path.write_text(path.read_text().replace('"n": 20', '"n": 21'))
    tester.runpytest("--claims-profile=published").assert_outcomes(passed=1)
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
    assert e["message"].startswith("cot.measured: drifted")
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


def test_snapshot_update_never_touches_published_values(tester, monkeypatch):
    tester.makepyfile(test_m=MEASURES)
    monkeypatch.setenv("MEASURED", "0.25")
    tester.runpytest("--snapshot-update")
    pinned = json.loads((tester.path / "snapshots" / "tiny" / "cot" / "test_measured.json").read_text())
    assert pinned["measured"] == {"v": 0.25, "n": 20}
    assert "published" not in pinned
    assert 'published={"v": 0.5}' in (tester.path / "test_m.py").read_text()
    assert results(tester)["tests"][0]["published"] == {"v": 0.5}
