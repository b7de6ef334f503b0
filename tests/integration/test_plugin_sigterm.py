"""A run ended by SIGTERM (a Slurm time limit, `timeout`, a runner's cancel), in a pytest process of
its own, alone and under xdist: it records what finished and is marked partial, exiting with
pytest's interrupted status (2), as Ctrl-C does."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from tests.integration.plugin_runs import MEASURES, results

pytest_plugins = ["pytester"]

WAITS = MEASURES + '''

def test_waits():
    from pathlib import Path
    import time

    Path("started").write_text("")
    time.sleep(120)


def test_never_reached():
    pass
'''


def _terminated_mid_run(tester: pytest.Pytester, *args: str) -> int:
    """Start the run, send SIGTERM once test_waits has started, and return its exit status."""
    tester.makepyfile(test_m=WAITS)
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "--snapshot-update", *args],
                            cwd=tester.path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not (tester.path / "started").exists() and proc.poll() is None:
        assert time.monotonic() < deadline, "test_waits never started"
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=300)


@pytest.mark.meta  # a pytest process of its own, ended by SIGTERM: make test-meta
@pytest.mark.parametrize("args", [[], ["-n", "2"]], ids=["alone", "xdist"])
def test_a_run_ended_by_sigterm_records_what_finished_as_partial(tester, args):
    assert _terminated_mid_run(tester, *args) == pytest.ExitCode.INTERRUPTED
    record = results(tester)
    assert record["run"]["completed"] is False and record["run"]["interrupted"] is True
    assert {"test_m.py::test_waits", "test_m.py::test_never_reached"} <= set(
        record["run"]["not_run"])
    assert [(t["id"], t["verdict"]) for t in record["tests"]] == [("cot.measured", "replicated")]
