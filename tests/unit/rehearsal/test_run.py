"""The rehearsal's settings: the CUDA one runs one source at a time on its GPU, the CPU one a
source per core; the CUDA dry run keeps the CUDA path on the CPU (issue 26)."""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import asdict

import pytest

from harness.rehearsal.run import last_seconds, run_order
from harness.rehearsal.setting import FULL_SIZE_DECODE_CAP, Setting
from harness.rehearsal.source_run import run_source


def test_the_cuda_rehearsal_runs_one_source_at_a_time_at_full_size():
    cuda = Setting.for_device("cuda")
    assert cuda.jobs == 1 and cuda.full_size and cuda.published_sizes
    assert cuda.decode_cap == FULL_SIZE_DECODE_CAP and cuda.separate_audit and cuda.cap_from_plan


def test_the_cpu_rehearsal_runs_a_source_per_core_under_the_audit():
    cpu = Setting.for_device("cpu")
    assert cpu.jobs == (os.cpu_count() or 1) and not cpu.full_size and cpu.audit == "inline"


def test_the_dry_run_keeps_the_cuda_path_on_the_cpu_narrowed():
    dry = Setting.for_device("cuda").dry_run(8)
    assert (dry.device, dry.full_size, dry.decode_cap) == ("cpu", False, 8)
    assert dry.published_sizes and dry.modes == ("fast", "faithful") and dry.separate_audit
    assert not dry.cap_from_plan


SOURCES = ["cot", "heads", "lookback", "patching", "extra"]


def test_one_at_a_time_the_most_informative_source_goes_first():
    assert run_order(SOURCES, 1) == ["patching", "cot", "heads", "lookback", "extra"]


def test_several_at_once_the_longest_last_time_goes_first():
    seconds = {"cot": 70.0, "heads": 45.0, "lookback": 90.0, "patching": 15.0, "extra": 30.0}
    assert run_order(SOURCES, 2, seconds) == ["lookback", "cot", "heads", "extra", "patching"]


def test_several_at_once_the_unmeasured_go_last_the_declared_larger_first():
    assert run_order(SOURCES, 2, {"patching": 15.0}) == ["patching", "lookback", "heads", "cot",
                                                          "extra"]


def test_the_last_rehearsals_seconds_count_its_build_and_runs(tmp_path):
    setting = Setting.for_device("cpu")
    out = tmp_path / "rehearsal.json"
    out.write_text(json.dumps({"setting": asdict(setting), "build": {"cot": {"wall_seconds": 2.0}},
                               "sources": {"cot": {"faithful": {"seconds": 60.0}}}}))
    assert last_seconds(out, setting) == {"cot": 62.0}


def test_a_rehearsal_under_another_setting_gives_no_seconds(tmp_path):
    out = tmp_path / "rehearsal.json"
    out.write_text(json.dumps({"setting": asdict(Setting.for_device("cuda")),
                               "sources": {"cot": {"faithful": {"seconds": 60.0}}}}))
    assert last_seconds(out, Setting.for_device("cpu")) == {}
    assert last_seconds(tmp_path / "none.json", Setting.for_device("cpu")) == {}


def test_the_narrowed_cpu_models_are_built_here_and_full_size_ones_in_a_process_of_their_own():
    assert Setting.for_device("cpu").builds_here
    assert Setting.for_device("cuda").dry_run(8).builds_here
    assert not Setting.for_device("cuda").builds_here


class Started(Exception):
    """Raised in place of starting the run's pytest process."""


def test_a_sources_run_writes_its_record_but_no_page(tmp_path, monkeypatch):
    started = {}

    def popen(args, **kwargs):
        started["args"] = args
        raise Started

    monkeypatch.setattr(subprocess, "Popen", popen)
    with pytest.raises(Started):
        run_source("patching", tmp_path / "hf", "rehearsal", tmp_path / "run", 60)
    assert "--no-page" in started["args"] and f"--results={tmp_path / 'run' / 'results.json'}" \
        in started["args"]
