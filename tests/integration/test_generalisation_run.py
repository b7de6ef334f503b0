"""--model end to end, offline: GPT-2's tokenizer under another name with a 24-block config in a
Hugging Face cache; its tokenizer checks run on it and every entry says it is a generalisation."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from tests.paths import ROOT, SHARED_CACHE

GPT2 = get_profile("published").models["patching"]
COMMIT = "0" * 40


def deeper_gpt2(cache) -> None:
    source = snapshot_dir(SHARED_CACHE, GPT2)
    if not (source / "config.json").is_file():
        pytest.skip(f"GPT-2's config is not in the shared cache: {source}")
    repo = cache / "hub" / "models--test-org--gpt2-deep"
    target = repo / "snapshots" / COMMIT
    shutil.copytree(source, target)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    config = json.loads((target / "config.json").read_text())
    (target / "config.json").unlink()
    (target / "config.json").write_text(json.dumps(config | {"n_layer": 24}))


@pytest.mark.meta  # a process of its own: make test-meta
def test_a_generalisation_run_labels_every_entry_and_runs_the_tokenizer_checks(tmp_path):
    deeper_gpt2(tmp_path / "hf")
    out = tmp_path / "results.json"
    env = os.environ | {"HF_HOME": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-m", "pytest", "claims/patching", "-m", "hub",
                    "--model", "patching=test-org/gpt2-deep", "-p", "no:cacheprovider", "-q",
                    f"--results={out}"], cwd=ROOT, env=env, capture_output=True, text=True)
    results = json.loads(out.read_text())
    assert results["environment"]["generalisation"] == {"patching": "test-org/gpt2-deep@main"}
    assert {e["generalisation"] for e in results["tests"]} == {"test-org/gpt2-deep@main"}
    ran = {e["id"]: e["verdict"] for e in results["tests"] if e["verdict"] != "skipped"}
    assert ran == {"patching.single-token-words": "replicated",
                   "patching.aligned-pairs": "replicated"}
