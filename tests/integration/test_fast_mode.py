"""Fast mode on the organisms: every family, batched, reproduces the faithful run's pinned values
(the same snapshots, compared exactly as the faithful run is), and the cost plan's work for each
step is what an independent hook on the first decoder block counts in that run. Lookback and
patching run through nnsight's local simulation of an NDIF round trip (`--backend=ndif-local`),
which must give the same snapshots too."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from harness.cost.plan import Assumptions
from harness.cost.build import source_steps
from harness.profiles import Mode
from harness.sources import get_profile
from harness.sources import registered
from harness.verdicts import Drift
from tests.paths import ROOT

pytestmark = pytest.mark.meta  # re-runs families: `make test-meta`

TINY = get_profile("tiny")
# Each backend runs the sources written for it: the simulated NDIF round trip those whose
# experiments are written for a remote model, locally the others.
RUNS = {backend: tuple(sorted(n for n, s in registered().items() if s.remote is remote))
        for backend, remote in (("local", False), ("ndif-local", True))}


@pytest.fixture(scope="module", params=sorted(RUNS))
def fast_run(request, tmp_path_factory) -> tuple[str, subprocess.CompletedProcess, dict, dict]:
    """Two families' claims in fast mode on `backend` (two workers), counted by
    tests/work_counter.py: the backend, the process, results.json and the counts."""
    backend = request.param
    out = tmp_path_factory.mktemp(backend)
    env = os.environ | {"WORK_COUNTER_DIR": str(out / "counts")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *(f"claims/{s}" for s in RUNS[backend]),
         "--profile=tiny", "--mode=fast", f"--backend={backend}", "-n", "2",
         "-p", "tests.work_counter", "-p", "no:cacheprovider", "-q",
         f"--results={out / 'results.json'}"], cwd=ROOT, env=env, capture_output=True, text=True)
    counted: dict = {"steps": {}, "simulated": 0}
    for part in (out / "counts").glob("*.json"):
        found = json.loads(part.read_text())
        counted["simulated"] += found["simulated"]
        for source, steps in found["steps"].items():
            counted["steps"].setdefault(source, {}).update(steps)
    return backend, proc, json.loads((out / "results.json").read_text()), counted


def test_every_family_runs_in_one_of_the_fast_runs():
    assert sorted(s for sources in RUNS.values() for s in sources) == sorted(TINY.models)


def test_the_fast_run_passes_in_fast_mode_on_its_backend(fast_run):
    backend, proc, results, _ = fast_run
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert {e["source"] for e in results["tests"]} == set(RUNS[backend])
    assert {e["mode"] for e in results["tests"]} == {"fast"}
    assert results["environment"]["backend"] == backend


def test_fast_mode_matches_the_faithful_snapshots(fast_run):
    backend, _, results, _ = fast_run
    pinned = [e for e in results["tests"] if e["snapshot"] is not None]
    assert {e["source"] for e in pinned} == set(RUNS[backend])
    assert [e["id"] for e in pinned if e["drift"] != Drift.NONE] == []


def test_the_simulated_backend_sends_every_trace_through_the_round_trip(fast_run):
    backend, _, _, counted = fast_run
    forwards = sum(s["forwards"] for steps in counted["steps"].values() for s in steps.values())
    if backend == "local":
        assert counted["simulated"] == 0
    else:
        assert 0 < counted["simulated"] <= forwards


def test_the_plan_counts_what_a_fast_run_processes(fast_run):
    backend, _, _, counted = fast_run
    for source in RUNS[backend]:
        steps, basis = source_steps(ROOT, TINY, Mode.FAST, source, context=None,
                                    a=Assumptions(), shape=None)
        planned = {s.step: {"forwards": s.work.forwards, "positions": s.work.tokens}
                   for s in steps}
        assert basis == "pinned ledger"
        assert planned == counted["steps"][source], source
