"""The published-shape rehearsal: what its models keep of the published ones, and its CPU dry run."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from harness.profiles import get_profile
from harness.rehearsal.build import build_model, narrowed, snapshot_dir
from tests.paths import ROOT, SHARED_CACHE

PUBLISHED = get_profile("published").models
SHAPE_KEYS = ("model_type", "num_hidden_layers", "n_layer", "num_attention_heads", "n_head",
              "num_key_value_heads", "vocab_size", "rope_theta", "rope_scaling",
              "tie_word_embeddings", "max_position_embeddings", "n_positions")


def published_config(source: str) -> dict:
    path = snapshot_dir(SHARED_CACHE, PUBLISHED[source]) / "config.json"
    if not path.is_file():
        pytest.skip(f"the published config is not in the shared cache: {path}")
    return json.loads(path.read_text())


@pytest.mark.parametrize("source", sorted(PUBLISHED))
def test_narrowing_keeps_every_published_shape_but_the_width(source):
    config = published_config(source)
    narrow = narrowed(config)
    assert {k: narrow.get(k) for k in SHAPE_KEYS} == {k: config.get(k) for k in SHAPE_KEYS}
    width = "n_embd" if config["model_type"] == "gpt2" else "hidden_size"
    assert narrow[width] < config[width]


def test_a_built_model_never_ends_a_greedy_generation(tmp_path):
    published_config("heads")
    build_model(SHARED_CACHE, tmp_path, PUBLISHED["heads"], full_size=False)
    from transformers import AutoModelForCausalLM

    target = snapshot_dir(tmp_path, PUBLISHED["heads"])
    model = AutoModelForCausalLM.from_pretrained(target)
    eos = json.loads((target / "generation_config.json").read_text())["eos_token_id"]
    logits = model(input_ids=torch.arange(1, 33)[None]).logits[0]
    assert not set(logits.argmax(-1).tolist()) & set(eos if isinstance(eos, list) else [eos])


def test_the_cpu_dry_run_rehearses_a_source_and_reports_time_and_memory(tmp_path):
    published_config("patching")
    out = tmp_path / "rehearsal.json"
    proc = subprocess.run([sys.executable, "-m", "harness.rehearsal", "--sources", "patching",
                           "--device", "cpu", "--published-cache", str(SHARED_CACHE),
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads(out.read_text())
    run = summary["sources"]["patching"]["faithful"]
    assert summary["ok"] and summary["profile"] == "rehearsal" and not run["errors"]
    assert run["seconds"] > 0 and run["max_rss_bytes"] > 0
    assert run["throughput"]["forwards"] > 0 and run["throughput"]["positions_per_s"] > 0
    assert {t["verdict"] for t in run["tests"]} <= {"not applicable", "skipped"}
    assert summary["build"]["patching"]["parameters"] > 0


def test_without_the_published_files_the_rehearsal_says_what_is_missing(tmp_path):
    out = tmp_path / "rehearsal.json"
    subprocess.run([sys.executable, "-m", "harness.rehearsal", "--sources", "patching",
                    "--published-cache", str(tmp_path / "empty"), "--out", str(out)], cwd=ROOT,
                   check=True, capture_output=True)
    summary = json.loads(out.read_text())
    assert summary["ok"] is None and "config.json" in summary["skipped"]
