"""Fast mode on the organisms at their micro sizes: every family, batched, gives the faithful
run's values (verdicts equal, floats within the organisms' tolerance), and the work meter records
for each step what an independent hook on the first decoder block counts. Lookback and patching
run through nnsight's local simulation of an NDIF round trip (`--backend=ndif-local`), which must
give the same values too."""
from __future__ import annotations

import pytest

from harness.registry import get_profile, registered
from tests.integration.conftest import PairedRun, differences, micro_run

pytestmark = pytest.mark.meta  # re-runs families: `make test-meta`

# Each backend runs the sources written for it: the simulated NDIF round trip those whose
# experiments are written for a remote model, locally the others.
RUNS = {backend: tuple(sorted(n for n, s in registered().items() if s.remote is remote))
        for backend, remote in (("local", False), ("ndif-local", True))}


@pytest.fixture(params=sorted(RUNS))
def fast_run(request, tmp_path_factory) -> tuple[str, PairedRun]:
    """The backend's families in fast mode on the micro profile (two workers)."""
    backend = request.param
    return backend, micro_run(tmp_path_factory, f"fast-{backend}", *(f"claims/{s}" for s in RUNS[backend]),
                              "--mode=fast", f"--backend={backend}", "-n", "2")


def test_every_family_runs_in_one_of_the_fast_runs():
    assert sorted(s for sources in RUNS.values() for s in sources) == sorted(get_profile("micro").models)


def test_the_fast_run_passes_in_fast_mode_on_its_backend(fast_run):
    backend, run = fast_run
    assert run.returncode == 0, run.stdout[-3000:]
    assert {e.source for e in run.record.tests} == set(RUNS[backend])
    assert {e.mode for e in run.record.tests} == {"fast"}
    assert run.record.environment["backend"] == backend


def test_fast_mode_gives_the_faithful_runs_values(fast_run, micro_faithful):
    _, run = fast_run
    assert micro_faithful.returncode == 0, micro_faithful.stdout[-3000:]
    assert differences(micro_faithful.record, run.record) == []


def test_the_simulated_backend_sends_every_trace_through_the_round_trip(fast_run):
    backend, run = fast_run
    forwards = sum(s["forwards"] for steps in run.counted["steps"].values() for s in steps.values())
    if backend == "local":
        assert run.counted["simulated"] == 0
    else:
        assert 0 < run.counted["simulated"] <= forwards


def test_the_work_meter_records_what_an_independent_hook_counts(fast_run):
    backend, run = fast_run
    for source in RUNS[backend]:
        recorded = {step: {"forwards": w["forwards"],
                           "positions": w["prompt_tokens"] + w["decode_tokens"] + w["padding"]}
                    for step, w in run.record.work[source].items()}
        assert recorded == run.counted["steps"][source], source
