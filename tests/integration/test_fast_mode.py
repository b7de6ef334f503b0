"""Fast mode on the organisms: every family, batched, reproduces the faithful run's pinned values
(the same snapshots, compared exactly as the faithful run is), and the cost plan's work for each
step is what an independent hook on the first decoder block counts in that run."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.plan import Assumptions
from harness.plan_build import source_steps
from harness.profiles import Mode, get_profile
from harness.verdicts import Drift

ROOT = Path(__file__).resolve().parents[2]
TINY = get_profile("tiny")


@pytest.fixture(scope="module")
def fast_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, dict, dict]:
    """Every tiny family's claims in fast mode (two workers), counted by tests/work_counter.py."""
    out = tmp_path_factory.mktemp("fast")
    env = os.environ | {"WORK_COUNTER_DIR": str(out / "counts")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "claims", "--profile=tiny", "--mode=fast", "-n", "2",
         "-p", "tests.work_counter", "-p", "no:cacheprovider", "-q",
         f"--results={out / 'results.json'}"], cwd=ROOT, env=env, capture_output=True, text=True)
    counted: dict[str, dict] = {}
    for part in (out / "counts").glob("*.json"):
        for source, steps in json.loads(part.read_text()).items():
            counted.setdefault(source, {}).update(steps)
    return proc, json.loads((out / "results.json").read_text()), counted


def test_fast_mode_runs_every_family(fast_run):
    proc, results, _ = fast_run
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert {e["source"] for e in results["tests"]} == set(TINY.models)
    assert {e["mode"] for e in results["tests"]} == {"fast"}


def test_fast_mode_matches_the_faithful_snapshots_on_every_family(fast_run):
    _, results, _ = fast_run
    pinned = [e for e in results["tests"] if e["snapshot"] is not None]
    assert {e["source"] for e in pinned} == set(TINY.models)
    assert [e["id"] for e in pinned if e["drift"] != Drift.NONE] == []


def test_the_plan_counts_what_a_fast_run_processes(fast_run):
    _, _, counted = fast_run
    for source in TINY.models:
        steps, basis = source_steps(ROOT, TINY, Mode.FAST, source, context=None,
                                    a=Assumptions(), shape=None)
        planned = {s.step: {"forwards": s.work.forwards, "positions": s.work.tokens}
                   for s in steps}
        assert basis == "pinned ledger"
        assert planned == counted[source], source
