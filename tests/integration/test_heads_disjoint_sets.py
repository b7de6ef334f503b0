"""heads.disjoint-sets is a hub anchor: it runs on Qwen2.5's tokenizer from a warm cache, else skips.
Under `make test` the hub tier has just run it: its record is read rather than the run repeated."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.registry import get_profile
from tests.paths import ROOT, SHARED_CACHE

QWEN = get_profile("published").models["heads"].hf_id
REVISION = get_profile("published").models["heads"].revision


def hub_run(tmp_path: Path, hf_home: Path) -> dict[str, Any]:
    """Run the heads hub anchors offline with `hf_home` as the cache; heads.disjoint-sets' entry."""
    results = tmp_path / "reports" / "results.json"
    env = {**os.environ, "HF_HOME": str(hf_home), "HF_HUB_OFFLINE": "1"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "hub", "-k", "disjoint_sets",
                          "-p", "no:cacheprovider", f"--results={results}",
                          "claims/heads"],
                         cwd=ROOT, env=env, capture_output=True, text=True)
    assert results.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    return next(t for t in json.loads(results.read_text())["tests"] if t["id"] == "heads.disjoint-sets")


def recorded_hub_entry() -> dict[str, Any] | None:
    """heads.disjoint-sets' entry in the hub tier's record that `make test` ran just before
    (INTERP_CLAIMS_HUB), where it ran there; else None."""
    path = os.environ.get("INTERP_CLAIMS_HUB")
    if not path or not Path(path).is_file():
        return None
    entry = next((t for t in json.loads(Path(path).read_text())["tests"]
                  if t["id"] == "heads.disjoint-sets"), None)
    return entry if entry and entry["verdict"] != "skipped" else None


@pytest.mark.skipif(not (SHARED_CACHE / "hub").is_dir() and recorded_hub_entry() is None,
                    reason=f"no tokenizer cache at {SHARED_CACHE}")
def test_the_check_runs_on_qwens_filtered_main_set(tmp_path):
    entry = recorded_hub_entry()
    if entry is None:
        name = "models--" + QWEN.replace("/", "--")
        shutil.copytree(SHARED_CACHE / "hub" / name, tmp_path / "hf" / "hub" / name)
        entry = hub_run(tmp_path, tmp_path / "hf")
    assert entry["verdict"] == "replicated", entry
    assert entry["measured"]["disjoint"] and entry["measured"]["main"] == 32
    assert entry["measured"]["single_token_objects"] <= entry["measured"]["objects"]


@pytest.mark.meta  # a process of its own: make test-meta
def test_without_the_tokenizer_it_skips_and_says_why(tmp_path):
    entry = hub_run(tmp_path, tmp_path / "empty")
    assert entry["verdict"] == "skipped"
    assert entry["message"] == (f"{QWEN}@{REVISION[:7]}… is not in the Hugging Face cache "
                                "and the hub is unreachable")
