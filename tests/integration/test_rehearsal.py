"""The published-shape rehearsal: what its models keep of the published ones, and its CPU dry run."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from harness.rehearsal.build import build_here, build_model, narrowed, published_files
from harness.rehearsal.cap import COUNTED
from harness.rehearsal.setting import DRY_RUN_OWN_SIZES
from harness.rehearsal.source_run import EXPECTED_SKIPS
from tests.paths import ROOT, SHARED_CACHE

PUBLISHED = get_profile("published").models
SHAPE_KEYS = ("model_type", "num_hidden_layers", "n_layer", "num_attention_heads", "n_head",
              "num_key_value_heads", "vocab_size", "rope_theta", "rope_scaling",
              "tie_word_embeddings", "max_position_embeddings", "n_positions")


# The anchors that prove an edit fired: the fire-once anchors, and heads' edit receipts.
FIRE_ONCE = ("fire-once", "fires-once", "heads.edit-receipts")


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


@pytest.mark.meta  # builds in a process of its own too: make test-meta
def test_a_build_here_draws_the_same_weights_as_one_in_a_process_of_its_own(tmp_path):
    published_config("patching")
    here = build_here("patching", SHARED_CACHE, tmp_path / "here", False, "cpu", 120)
    from harness.rehearsal.build import build_in_child

    child = build_in_child("patching", SHARED_CACHE, tmp_path / "child", False, "cpu", 120,
                           tmp_path / "build.log")
    assert here["parameters"] == child["parameters"] and "error" not in here
    from safetensors.torch import load_file

    weights = [load_file(Path(b["snapshot"]) / "model.safetensors") for b in (here, child)]
    assert weights[0].keys() == weights[1].keys()
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])


def test_a_build_here_past_its_budget_is_an_error(tmp_path):
    published_config("patching")
    built = build_here("patching", SHARED_CACHE, tmp_path, False, "cpu", timeout=-1)
    assert built["timed_out"] and built["error"].startswith("the build took")


def test_a_build_here_that_raises_is_an_error(tmp_path):
    built = build_here("patching", tmp_path / "no-cache", tmp_path / "out", False, "cpu", 120)
    assert built["error"].startswith("the build raised FileNotFoundError") and not built["timed_out"]


def test_the_build_never_copies_the_published_weight_shards(tmp_path):
    source = tmp_path / "snapshot"
    source.mkdir()
    for name in ("config.json", "tokenizer.json", "model-00001-of-00002.safetensors",
                 "model.safetensors.index.json", "pytorch_model.bin", "generation_config.json"):
        (source / name).write_text("{}")
    assert [p.name for p in published_files(source)] == ["config.json", "generation_config.json",
                                                         "tokenizer.json"]


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory) -> dict:
    """The CPU rehearsal's record: the one `make test` wrote just before (it names it in
    INTERP_CLAIMS_REHEARSAL), so the rehearsal runs once, or else a run of patching alone."""
    if os.environ.get("INTERP_CLAIMS_REHEARSAL"):
        return json.loads(Path(os.environ["INTERP_CLAIMS_REHEARSAL"]).read_text())
    published_config("patching")
    out = tmp_path_factory.mktemp("rehearsal") / "rehearsal.json"
    proc = subprocess.run([sys.executable, "-m", "harness.rehearsal", "--sources", "patching",
                           "--device", "cpu", "--published-cache", str(SHARED_CACHE),
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text())


def test_the_cpu_dry_run_rehearses_each_source_and_reports_time_and_memory(dry_run):
    if dry_run["ok"] is None:
        pytest.skip(f"the rehearsal was skipped: {dry_run['skipped']}")
    assert dry_run["ok"] and dry_run["profile"] == "rehearsal" and dry_run["sources"]
    for name, runs in dry_run["sources"].items():
        run = runs["faithful"]
        assert not run["errors"], (name, run["errors"])
        assert run["seconds"] > 0 and run["max_rss_bytes"] > 0
        assert run["throughput"]["forwards"] > 0 and run["throughput"]["positions_per_s"] > 0
        assert dry_run["build"][name]["parameters"] > 0


def test_every_fire_once_anchor_holds_on_the_published_shapes(dry_run):
    if dry_run["ok"] is None:
        pytest.skip(f"the rehearsal was skipped: {dry_run['skipped']}")
    for name, runs in dry_run["sources"].items():
        fired = {t["id"]: t["verdict"] for t in runs["faithful"]["tests"]
                 if t["id"].endswith(FIRE_ONCE)}
        assert fired and set(fired.values()) == {"held"}, (name, fired)


NOT_BEHAVIOURAL = EXPECTED_SKIPS  # skips that say nothing of the model's behaviour (run.py)


def test_every_test_reaches_a_verdict_past_the_behavioural_filters(dry_run):
    if dry_run["ok"] is None:
        pytest.skip(f"the rehearsal was skipped: {dry_run['skipped']}")
    for name, runs in dry_run["sources"].items():
        stopped = [f"{t['id']}: {t['verdict']}: {t['message']}" for t in runs["faithful"]["tests"]
                   if t["verdict"] in ("skipped", "blocked")
                   and not t["message"].startswith(NOT_BEHAVIOURAL)]
        assert not stopped, (name, stopped)


def test_tests_on_forced_rows_say_so_and_skip_only_their_behavioural_holds(dry_run):
    if dry_run["ok"] is None:
        pytest.skip(f"the rehearsal was skipped: {dry_run['skipped']}")
    tests = {t["id"]: t for runs in dry_run["sources"].values() for t in runs["faithful"]["tests"]}
    for forced in ("lookback.binding-iia", "lookback.answer-pointer", "lookback.source-oi",
                   "cot.single-mistake", "cot.self-patch"):
        if forced in tests:
            assert tests[forced]["forced"], forced
    for behavioural in ("lookback.source-identity", "cot.self-patch"):
        if behavioural in tests:
            assert tests[behavioural]["holds_check"]["ok"] is None, tests[behavioural]
    assert all(not t["forced"] for t in tests.values() if t["id"].endswith("samples"))


@pytest.mark.meta  # a process of its own: make test-meta
def test_without_the_published_files_the_rehearsal_says_what_is_missing(tmp_path):
    out = tmp_path / "rehearsal.json"
    subprocess.run([sys.executable, "-m", "harness.rehearsal", "--sources", "patching",
                    "--published-cache", str(tmp_path / "empty"), "--out", str(out)], cwd=ROOT,
                   check=True, capture_output=True)
    summary = json.loads(out.read_text())
    assert summary["ok"] is None and "config.json" in summary["skipped"]


@pytest.mark.meta
def test_the_cuda_rehearsals_dry_run_takes_its_path_on_the_cpu(tmp_path):
    """The CUDA setting (published sizes, fast then faithful, capped decoding with its
    extrapolation, a budget per source and mode, the audit as a separate pass, each source built
    on the run's device, run and deleted) on every source, narrowed, on the CPU; heads and lookback
    at their own sizes (DRY_RUN_OWN_SIZES), whose published ones take many minutes here."""
    published_config("cot")
    out = tmp_path / "gpu-rehearsal.json"
    proc = subprocess.run([sys.executable, "-m", "harness.rehearsal", "--dry-run-of", "cuda",
                           "--decode-cap", "8", "--published-cache", str(SHARED_CACHE),
                           "--out", str(out), "--runs", str(tmp_path / "runs")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads(out.read_text())
    setting = summary["setting"]
    assert setting["published_sizes"] and setting["audit"] == "separate" and setting["decode_cap"] == 8
    assert tuple(setting["own_sizes"]) == DRY_RUN_OWN_SIZES and summary["finished"]
    assert summary["budget_per_source_and_mode_s"] and summary["scratch"]["path"]
    assert set(summary["sources"]) == set(summary["audit"]) == set(PUBLISHED)
    for name, runs in summary["sources"].items():
        assert summary["build"][name]["device"] == "cpu" and summary["build"][name]["parameters"]
        assert list(runs) == ["fast", "faithful"]
        for run in runs.values():
            assert not run["device_audit"] and run["decode_cap"] == 8 and run["ok"], run["holes"]
        assert (tmp_path / "runs" / name / "fast" / "tests.jsonl").is_file()
        audit = summary["audit"][name]
        assert audit["device_audit"] and not audit["errors"], audit["errors"]
    for run in summary["sources"]["cot"].values():
        assert run["extrapolated_seconds"] > run["seconds"] and "upper bound" in run["extrapolated"]
    # cot's pinned decode counts (cap.py) are what this run counted at its cap.
    for mode, counted in COUNTED["cot"].items():
        work = summary["sources"]["cot"][mode]["throughput"]
        assert abs(counted.other + counted.per_cap_token * 8 - work["forwards"]) <= 1, (mode, work)
    assert summary["decode_caps"]["cot"]["faithful"]["cap"] == 8


@pytest.mark.meta
def test_the_device_audit_passes_on_every_source(tmp_path):
    """make test's rehearsal runs without the audit; here every source runs under it."""
    published_config("patching")
    out = tmp_path / "rehearsal.json"
    proc = subprocess.run([sys.executable, "-m", "harness.rehearsal", "--device", "cpu",
                           "--audit", "inline", "--published-cache", str(SHARED_CACHE),
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = json.loads(out.read_text())
    runs = [runs["faithful"] for runs in summary["sources"].values()]
    assert len(runs) == len(PUBLISHED) and all(r["device_audit"] and not r["errors"] for r in runs)
