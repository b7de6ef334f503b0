"""The rehearsal's orchestration, with its builds and runs stubbed: a budget per source and mode,
one source's model at a time, the summary rewritten after each step, nothing started past the
deadline, cot's cap from the plan; and the pure parts it rests on (issue 39)."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from harness.models.resources import snapshot_dir
from harness.rehearsal import run as rehearsal
from harness.rehearsal.cap import Counted
from harness.rehearsal.run import choose_scratch, rehearse, write_summary
from harness.rehearsal.setting import Setting
from harness.registry import get_profile
from harness.sources.heads import sizes as heads_sizes

SOURCES = ["cot", "heads", "lookback", "patching"]


class Stubs:
    """Stand-ins for the build and the run: each call recorded, the clock moved `run_s` a run."""

    def __init__(self, scratch, out, run_s: float = 0.0) -> None:
        self.scratch, self.out, self.run_s, self.now = scratch, out, run_s, 0.0
        self.builds, self.runs = [], []

    def build(self, name, published_cache, out, full_size, device, timeout, log):
        self.builds.append((name, timeout))
        assert out.parent.parent == self.scratch and len(list(self.scratch.iterdir())) == 1
        return {"parameters": 4 * 10**9, "gpu": "NVIDIA H200", "device": device,
                "wall_seconds": 1.0}

    def run(self, name, cache, profile, folder, timeout, mode, dtype, published, cap, audit):
        written = json.loads(self.out.read_text())
        assert sum(len(r) for r in written["sources"].values()) + len(written["audit"]) == len(
            self.runs), "the summary holds every run before this one"
        self.runs.append({"name": name, "mode": mode, "audit": audit, "timeout": timeout,
                          "cap": cap, "published": published})
        self.now += self.run_s
        return {"ok": True, "holes": [], "seconds": 40.0,
                "throughput": {"forwards": 1000, "step_seconds": 20.0}}


@pytest.fixture
def stubbed(tmp_path, monkeypatch):
    cache, scratch, out = tmp_path / "published", tmp_path / "scratch", tmp_path / "summary.json"
    scratch.mkdir()
    for spec in get_profile("rehearsal").models.values():
        snapshot_dir(cache, spec).mkdir(parents=True, exist_ok=True)  # sources may share a model
        (snapshot_dir(cache, spec) / "config.json").write_text("{}")
    stubs = Stubs(scratch, out)
    monkeypatch.setattr(rehearsal, "build_in_child", stubs.build)
    monkeypatch.setattr(rehearsal, "build_here", lambda *args: stubs.build(*args, log=None))
    monkeypatch.setattr(rehearsal, "run_source", stubs.run)
    monkeypatch.setattr(rehearsal, "scratch_candidates", lambda: [scratch])
    monkeypatch.setattr(rehearsal, "time", SimpleNamespace(perf_counter=lambda: stubs.now))
    return stubs, cache, out


def test_each_source_and_mode_has_its_own_budget_one_model_at_a_time(stubbed):
    stubs, cache, out = stubbed
    summary = rehearse(SOURCES, Setting.for_device("cuda"), cache, out, budget=100)
    assert [(r["name"], r["mode"], r["audit"]) for r in stubs.runs] == [
        (name, mode, audit) for name in ("patching", "cot", "heads", "lookback")
        for mode, audit in (("fast", False), ("faithful", False), ("faithful", True))]
    assert {r["timeout"] for r in stubs.runs} == {100}
    assert summary["ok"] and summary["finished"] and not summary["not_run"]
    assert list(stubs.scratch.iterdir()) == [], "each model is deleted after its runs"
    assert summary["scratch"]["path"] == str(stubs.scratch)
    assert json.loads(out.read_text()) == json.loads(json.dumps(summary))


def test_nothing_starts_past_the_deadline_and_what_ran_is_kept(stubbed):
    stubs, cache, out = stubbed
    stubs.run_s = 50
    summary = rehearse(SOURCES, Setting.for_device("cuda"), cache, out, 100, deadline_s=200)
    assert [(r["name"], r["mode"], r["timeout"]) for r in stubs.runs] == [
        ("patching", "fast", 100), ("patching", "faithful", 100), ("patching", "faithful", 100),
        ("cot", "fast", 50)]
    assert [line.split(":")[0] for line in summary["not_run"]] == [
        "cot (faithful)", "cot (audit)", "heads", "lookback"]
    assert not summary["ok"] and summary["sources"]["cot"]["fast"]


def test_cots_cap_comes_from_the_plan_then_from_its_own_measured_run(stubbed, monkeypatch):
    stubs, cache, out = stubbed
    monkeypatch.setitem(rehearsal.COUNTED, "cot", {"fast": Counted(2, 100),
                                                   "faithful": Counted(20, 400)})
    summary = rehearse(["cot"], Setting.for_device("cuda"), cache, out, budget=120)
    caps = summary["decode_caps"]["cot"]
    assert "the plan" in caps["fast"]["why"] and "fast 6" in caps["fast"]["why"]
    assert caps["fast"]["cap"] == 46, "fast's cap fits both modes at the plan's prices"
    assert "measured" in caps["faithful"]["why"] and caps["faithful"]["cap"] == 128
    assert [r["cap"] for r in stubs.runs][:2] == [caps["fast"]["cap"], caps["faithful"]["cap"]]


def test_the_scratch_directory_is_the_writable_one_with_most_free_space(tmp_path):
    small, large = tmp_path / "small", tmp_path / "large"
    small.mkdir(), large.mkdir()
    free = {str(small): 10, str(large): 10**12}
    chosen, found = choose_scratch([small, tmp_path / "absent", large], lambda p: free[str(p)])
    assert chosen == large and found == free


def test_the_summary_is_replaced_whole_never_left_half_written(tmp_path):
    out = tmp_path / "summary.json"
    write_summary({"sources": {"a": 1}}, out)
    write_summary({"sources": {"b": 2}}, out)
    assert json.loads(out.read_text()) == {"sources": {"b": 2}}
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def test_heads_keeps_a_smoke_block_on_random_weights_at_the_published_sizes():
    assert heads_sizes.PUBLISHED.smoke_block is None
    assert heads_sizes.PUBLISHED.on_random_weights().smoke_block == heads_sizes.SMOKE_BLOCK == 31
    assert heads_sizes.REHEARSAL.on_random_weights() == heads_sizes.REHEARSAL


def test_the_rehearsal_places_gpt2_as_the_other_sources_on_the_gpu_where_there_is_one():
    rehearsed, published = (get_profile(p).models["patching"] for p in ("rehearsal", "published"))
    assert (rehearsed.device, rehearsed.device_map) == ("cuda", "sequential")
    assert published.device == "cpu" and rehearsed.revision == published.revision
