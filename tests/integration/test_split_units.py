"""More xdist workers than sources: a source's units run on spare workers, their shared steps
once through the step store, and the claims give the values and the work of the unsplit run (the
micro profile's, one worker per source)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from harness.registry import registered
from tests.integration.conftest import PairedRun, differences, micro_run
from tests.paths import ROOT

pytestmark = pytest.mark.meta  # re-runs families: `make test-meta`

SWEEP_CLAIMS = ("test_reversed_curve", "test_same_position", "test_opaque_control")
SWEEP_UNITS = ("lookback_reversed", "lookback_same_position", "lookback_opaque")
COUNTED = ("forwards", "prompt_tokens", "decode_tokens", "padding")


def pytest_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--claims-profile=tiny", "-p",
                           "no:cacheprovider", "-q", "-rA", *args], cwd=ROOT, capture_output=True,
                          text=True)


@pytest.fixture
def split_run(tmp_path_factory) -> tuple[PairedRun, dict]:
    """Lookback's §4 sweep claims on the micro profile on two workers: one source, so the units
    those claims need (the three binding sweeps) split."""
    run = micro_run(tmp_path_factory, "split", "claims/lookback", "-n", "2", "-rA", "-k",
                    f"{' or '.join(SWEEP_CLAIMS)} or test_unit")
    return run, run.record.to_json()


def test_split_run_gives_the_unsplit_runs_values_and_work(split_run, micro_faithful):
    run, data = split_run
    assert run.returncode == 0, run.stdout[-3000:]
    assert differences(micro_faithful.record, run.record) == []
    unsplit = micro_faithful.record.work["lookback"]
    for step, work in data["work"]["lookback"].items():
        assert {k: work[k] for k in COUNTED} == {k: unsplit[step][k] for k in COUNTED}, step


def test_each_unit_a_selected_claim_needs_ran_as_an_item(split_run):
    run, data = split_run
    for step in SWEEP_UNITS:
        assert f"PASSED claims/lookback/test_units.py::test_unit[{step}]" in run.stdout
    assert f"{len(SWEEP_UNITS) + len(data['tests'])} passed" in run.stdout


def test_steps_were_computed_on_both_workers(split_run):
    _, data = split_run
    workers = {step["worker"] for step in data["work"]["lookback"].values()}
    assert workers == {"gw0", "gw1"}


def test_claims_all_ran_in_one_worker_after_their_anchors(split_run):
    _, data = split_run
    assert len({e["worker"] for e in data["tests"]}) == 1


def groups(*args: str) -> str:
    proc = pytest_run("--collect-only", *args)
    assert proc.returncode == 0, proc.stdout[-2000:]
    return next(line for line in proc.stdout.splitlines() if line.startswith("worker groups"))


def test_collect_only_shows_units_as_groups_of_their_own():
    line = groups("-n", "8", "claims/lookback", "claims/patching")
    for step in registered()["lookback"].units:
        assert f"claims/lookback/test_units.py::test_unit[{step}] (1)" in line


def test_units_stay_out_while_sources_fill_the_workers():
    line = groups("-n", "2", "claims/lookback", "claims/patching")
    assert re.search(r": claims/lookback \(\d+\), claims/patching \(\d+\)$", line), line


def test_a_unit_no_selected_claim_needs_stays_out():
    line = groups("-n", "8", "claims/lookback", "-k", "binding_iia or test_unit")
    assert "test_unit[lookback_reversed]" in line and "lookback_answer]" not in line
