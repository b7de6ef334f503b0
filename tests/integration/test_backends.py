"""--backend=ndif: every test skips with the reason it cannot run on NDIF (no key here)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.paths import ROOT


def ndif_run(tmp_path, profile: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NDIF_API_KEY"}
    env |= {"NNSIGHT_CONFIG": str(tmp_path / "no-config.yaml"), "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "results.json"
    subprocess.run([sys.executable, "-m", "pytest", "claims/patching", f"--profile={profile}",
                    "--backend=ndif", "-p", "no:cacheprovider", "-q", f"--results={out}"],
                   cwd=ROOT, env=env, capture_output=True, text=True)
    return json.loads(out.read_text())


def test_without_a_key_every_published_test_skips_naming_the_key(tmp_path):
    results = ndif_run(tmp_path, "published")
    assert results["tests"] and {e["verdict"] for e in results["tests"]} == {"skipped"}
    assert all("NDIF_API_KEY" in e["message"] for e in results["tests"])
    assert results["environment"]["backend"] == "ndif"


def test_an_organism_never_runs_on_ndif(tmp_path):
    results = ndif_run(tmp_path, "tiny")
    assert {e["verdict"] for e in results["tests"]} == {"skipped"}
    assert all("organism" in e["message"] for e in results["tests"])
