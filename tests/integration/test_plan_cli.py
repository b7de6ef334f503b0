"""`pytest --plan`: a table for each profile, from no model, and its JSON beside the reports."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from tests.paths import ROOT, SHARED_CACHE


def plan(profile: str, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = os.environ | {"HF_HOME": str(SHARED_CACHE), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "claims", "--plan",
                           f"--claims-profile={profile}", "-p", "no:cacheprovider", "-q", *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    return proc, json.loads((ROOT / "reports" / f"plan-{profile}.json").read_text())


@pytest.mark.meta  # a pytest --plan process over every claim: make test-meta
def test_the_tiny_plan_prices_the_pinned_ledgers_of_every_source_and_runs_nothing():
    proc, found = plan("tiny", "-n", "2")
    assert proc.returncode == 0 and "no tests ran" in proc.stdout
    assert "whole suite: faithful" in proc.stdout
    assert set(found["sources"]) == set(get_profile("tiny").models)
    assert {e[m]["basis"] for e in found["sources"].values() for m in ("faithful", "fast")} == {
        "pinned ledger"}
    shared = [s for e in found["sources"].values() for s in e["faithful"]["steps"] if s["shared"]]
    assert shared and all(len(s["claims"]) > 1 for s in shared)


@pytest.mark.meta  # a pytest --plan process over every claim: make test-meta
def test_the_published_plan_projects_the_organisms_work_with_each_sources_reasons():
    published = get_profile("published").models
    if not all((snapshot_dir(SHARED_CACHE, s) / "config.json").is_file()
               for s in published.values()):
        pytest.skip(f"the published configs are not all in {SHARED_CACHE}")
    proc, found = plan("published", "--plan-gpu", "A6000")
    assert proc.returncode == 0 and "NVIDIA RTX A6000" in proc.stdout
    cot = found["sources"]["cot"]
    assert cot["faithful"]["basis"] == "projected from the organism's ledger"
    assert any("cot.baseline-accuracy" in s["basis"] for s in cot["faithful"]["steps"])
    assert cot["fast"]["seconds"] < cot["faithful"]["seconds"]
    steps = {s["step"] for e in found["sources"].values() for m in ("faithful", "fast")
             for s in e[m]["steps"]}
    assert not any(step.endswith("_breakages") for step in steps)  # organisms only


@pytest.mark.meta  # a pytest --plan process over every claim: make test-meta
def test_the_plan_prices_splitting_each_sources_units_over_spare_gpus():
    proc, found = plan("tiny", "--plan-gpus", "8")
    assert "on 8 GPUs (xdist -n 8)" in proc.stdout
    cot = found["split"]["faithful"]["sources"]["cot"]
    assert cot["units"] and cot["split_s"] < cot["whole_s"]
    heads = found["split"]["faithful"]["sources"]["heads"]
    assert not heads["units"] and heads["split_s"] == heads["whole_s"]
