"""Fixtures shared by the integration tests."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, replace
from typing import Any

import pytest
from filelock import FileLock

from harness.reporting.record import RunRecord, read_record
from harness.reporting.run_diff import diff_runs, recorded_floats
from harness.snapshots import ORGANISM_FLOATS
from tests.paths import ROOT


@pytest.fixture
def tester(pytester: pytest.Pytester) -> pytest.Pytester:
    """A pytester project on the tiny profile, without the cache provider."""
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider --claims-profile=tiny\n")
    return pytester


@dataclass(frozen=True)
class PairedRun:
    """A pytest run of claims on the micro profile, for the meta tests that compare two fresh
    runs of a family (a mechanism, not the family's numbers): its exit status, output, record and
    the work an independent hook counted (tests/work_counter.py)."""

    returncode: int
    stdout: str
    record: RunRecord
    counted: dict[str, Any]


def micro_run(tmp_path_factory: pytest.TempPathFactory, name: str, *args: str,
              env: dict[str, str] | None = None) -> PairedRun:
    """`pytest --claims-profile=micro <args>`, run once per test session under the name `name` even
    across xdist workers (a lock in their shared base temp), so two meta tests that need the
    same run (the faithful one) share it."""
    base = tmp_path_factory.getbasetemp()
    session = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # xdist: per worker
    shared = session / "micro-runs" / name
    shared.mkdir(parents=True, exist_ok=True)
    with FileLock(shared.with_suffix(".lock")):
        done = shared / "done.json"
        if not done.exists():
            proc = subprocess.run(
                [sys.executable, "-m", "pytest", "--claims-profile=micro", "-p", "no:cacheprovider", "-q",
                 "-p", "tests.work_counter", f"--results={shared / 'results.json'}", *args],
                cwd=ROOT, env=os.environ | (env or {}) | {"WORK_COUNTER_DIR": str(shared / "counts")},
                capture_output=True, text=True)
            done.write_text(json.dumps({"returncode": proc.returncode, "stdout": proc.stdout}))
    ran = json.loads(done.read_text())
    counted: dict[str, Any] = {"steps": {}, "simulated": 0}
    for part in (shared / "counts").glob("*.json"):
        found = json.loads(part.read_text())
        counted["simulated"] += found["simulated"]
        for source, steps in found["steps"].items():
            counted["steps"].setdefault(source, {}).update(steps)
    return PairedRun(ran["returncode"], ran["stdout"], read_record(shared / "results.json"),
                     counted)


@pytest.fixture
def micro_faithful(tmp_path_factory: pytest.TempPathFactory) -> PairedRun:
    """Every family on the micro profile, faithful, local, this CPU's own kernels: the run the
    fast-mode, CPU-kernel and split meta tests compare theirs with."""
    return micro_run(tmp_path_factory, "faithful", "-n", "2", "claims")


def differences(reference: RunRecord, other: RunRecord) -> list[str]:
    """What differs between `other` and the same tests in `reference`: a verdict, a measured
    value beyond the float tolerance the reference recorded (the organisms' default, or the
    claim's own), or a test only one of them ran."""
    ids = {e.id for e in other.tests}
    mine = replace(reference, tests=tuple(e for e in reference.tests if e.id in ids))
    diff = diff_runs(mine, other, floats=lambda e: recorded_floats(e, ORGANISM_FLOATS))
    return ([f"{c.id}: {c.before} -> {c.after}" for c in diff.verdicts]
            + [f"{m.id}: {'; '.join(m.differences[:3])}" for m in diff.moved]
            + [f"only in the reference run: {i}" for i in diff.only_before]
            + [f"only in the other run: {i}" for i in diff.only_after])
