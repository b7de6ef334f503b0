"""harness.cost.cpu_runs: the plan records a CPU-declared published model's measured step time
from the last published CPU run on record, and says why where there is none."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from harness.cost import cpu_runs
from harness.registry import get_profile

GPT2 = get_profile("published").models["patching"]


def write_run(root: Path, relative: str, *, profile: str = "published", device: str = "cpu (x86_64)",
              seconds: tuple[float, ...] = (1.25, 2.5), selection: dict | None = None) -> None:
    env = {"profile": profile, "mode": "faithful", "device": device, "cpu_threads": 2,
           "torch": "2.x", "commit": "abc", "started": "2026-12-05T12:00:00+00:00",
           **({"selection": {"sources": selection}} if selection else {})}
    work = {"patching": {f"step{i}": {"seconds": s, "forwards": 1} for i, s in enumerate(seconds)}}
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"environment": env, "work": work}))


def test_a_published_cpu_run_gives_the_sum_of_its_step_seconds(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[0])
    found = cpu_runs.last_run(tmp_path, "patching", GPT2)
    assert (found["seconds"], found["steps"], found["cpu_threads"]) == (3.8, 2, 2)


def test_the_record_it_read_is_named(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[1])
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["record"] == cpu_runs.RECORDS[1]


def test_replicates_published_run_comes_before_the_plain_record(tmp_path):
    write_run(tmp_path, "reports/replicate/published/results.json", seconds=(1.0,))
    write_run(tmp_path, "reports/results.json", seconds=(9.0,))
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["seconds"] == 1.0


def test_a_run_on_the_organism_is_not_a_published_measurement(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[1], profile="tiny")
    found = cpu_runs.last_run(tmp_path, "patching", GPT2)
    assert found["seconds"] is None and GPT2.hf_id in found["why"]


def test_a_merged_replicate_record_counts_where_the_source_ran_published(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[1], profile="published+tiny",
              selection={"patching": "published"})
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["seconds"] == 3.8


def test_a_merged_record_where_the_source_ran_its_organism_does_not(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[1], profile="published+tiny",
              selection={"patching": "tiny"})
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["seconds"] is None


def test_a_run_on_a_gpu_is_not_a_cpu_measurement(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[0], device="NVIDIA H100")
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["seconds"] is None


def test_a_run_that_did_not_measure_the_source_is_passed_over(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[0])
    assert cpu_runs.last_run(tmp_path, "ioi_tutorial", GPT2)["seconds"] is None


def test_an_unreadable_record_is_passed_over(tmp_path):
    path = tmp_path / cpu_runs.RECORDS[0]
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert cpu_runs.last_run(tmp_path, "patching", GPT2)["seconds"] is None


def test_a_model_declared_on_cuda_has_no_cpu_entry(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[0])
    assert cpu_runs.last_run(tmp_path, "patching", replace(GPT2, device="cuda")) is None


def test_the_line_gives_the_seconds_mode_and_threads(tmp_path):
    write_run(tmp_path, cpu_runs.RECORDS[0])
    text = cpu_runs.line(cpu_runs.last_run(tmp_path, "patching", GPT2))
    assert "3.8 s of steps measured (faithful mode, cpu (x86_64), 2 threads" in text


def test_the_line_says_why_where_nothing_was_measured(tmp_path):
    text = cpu_runs.line(cpu_runs.last_run(tmp_path, "patching", GPT2))
    assert text == f"  on the CPU: {cpu_runs.NOT_MEASURED.format(model=GPT2.hf_id)}"


def test_no_line_for_a_model_on_another_device():
    assert cpu_runs.line(None) is None
