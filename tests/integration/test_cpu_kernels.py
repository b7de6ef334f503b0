"""Verdicts hold on other CPU kernels: claim families re-run under another ATen capability."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.meta  # re-runs families: `make test-meta`

# Families whose pins are mostly floats: the ones that drifted when pinned under one capability
# and compared exactly under another.
FAMILIES = ["claims/heads", "claims/patching"]


def native_capability() -> str:
    import torch

    return torch.backends.cpu.get_cpu_capability()


def test_float_families_give_the_same_verdicts_and_no_drift_under_default_kernels(tmp_path):
    if native_capability() == "DEFAULT" or os.environ.get("ATEN_CPU_CAPABILITY") == "default":
        pytest.skip("this run already uses ATen's default kernels; no other capability to compare")
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    results = tmp_path / "results.json"
    run = subprocess.run([sys.executable, "-m", "pytest", "--profile=tiny", "-p", "no:cacheprovider",
                          "-q", f"--results={results}", *FAMILIES],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    data = json.loads(results.read_text())
    assert data["environment"]["aten_cpu_capability"] == "DEFAULT"
    assert run.returncode == 0, run.stdout[-3000:]
    verdicts = {t["id"]: t["verdict"] for t in data["tests"]}
    assert set(verdicts.values()) <= {"not applicable", "replicated", "skipped"}, verdicts
    assert {t["drift"] for t in data["tests"] if t["outcome"] == "passed"} == {"no drift"}
    assert data["run"]["completed"]
