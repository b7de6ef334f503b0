"""The run record when a run is cut short: SIGTERM (a Slurm time limit, `timeout`, a runner's
cancel) ends it as Ctrl-C does, recording what finished as a partial run; and once a claim test
starts, the previous run's record is gone, so that a run that writes none leaves none that reads
as current. (The same, in a pytest process of its own: tests/integration/test_plugin_sigterm.py.)"""
from __future__ import annotations

import json
import signal
import threading
from typing import Any, Iterator

import pytest

from harness.plugin.recording import interrupt_on_sigterm
from tests.unit.plugin.claim_runs import run, verdict

pytest_plugins = ["pytester"]


def _reached(signum: int, frame: Any) -> None:
    raise RuntimeError("SIGTERM reached the test, not the run")


@pytest.fixture
def sigterm_caught() -> Iterator[None]:
    """SIGTERM that reaches this process fails the test here, instead of killing the test run."""
    previous = signal.signal(signal.SIGTERM, _reached)
    yield
    signal.signal(signal.SIGTERM, previous)


def test_sigterm_interrupts_as_ctrl_c_does(sigterm_caught):
    restore = interrupt_on_sigterm()
    try:
        with pytest.raises(KeyboardInterrupt, match="terminated by SIGTERM"):
            signal.raise_signal(signal.SIGTERM)
    finally:
        restore()


def test_the_previous_sigterm_handler_is_restored(sigterm_caught):
    interrupt_on_sigterm()()
    assert signal.getsignal(signal.SIGTERM) is _reached


def test_outside_the_main_thread_no_handler_is_installed(sigterm_caught):
    restored: list[object] = []
    thread = threading.Thread(target=lambda: restored.append(interrupt_on_sigterm()()))
    thread.start()
    thread.join()
    assert restored == [None] and signal.getsignal(signal.SIGTERM) is _reached


TERMINATED = '''
import signal


@finding("finished")
def test_finished(judge):
    judge(measured(1))


def test_terminated():
    signal.raise_signal(signal.SIGTERM)


def test_never_reached():
    pass
'''


@pytest.fixture
def terminated(pytester: pytest.Pytester, sigterm_caught: None) -> pytest.RunResult:
    return run(pytester, TERMINATED, no_reraise_ctrlc=True)


def test_a_run_ended_by_sigterm_exits_as_interrupted(terminated):
    assert terminated.ret == pytest.ExitCode.INTERRUPTED


def test_a_run_ended_by_sigterm_is_recorded_as_partial(terminated, pytester):
    record = json.loads((pytester.path / "reports" / "results.json").read_text())
    assert record["run"] == {"completed": False, "exit_status": 2, "interrupted": True,
                             "not_run": ["test_claims.py::test_never_reached",
                                         "test_claims.py::test_terminated"]}


def test_a_run_ended_by_sigterm_records_what_finished(terminated, pytester):
    record = json.loads((pytester.path / "reports" / "results.json").read_text())
    assert [(t["id"], t["verdict"]) for t in record["tests"]] == [("cot.finished", "replicated")]


def test_the_run_leaves_sigterm_as_it_found_it(terminated):
    assert signal.getsignal(signal.SIGTERM) is _reached


GONE = '''
from pathlib import Path


def gone() -> Value:
    return {"v": int(not Path("reports/results.json").exists())}


@finding("previous-record-gone")
def test_previous_record_gone(judge):
    judge(gone())
'''


def test_the_previous_record_is_gone_once_a_claim_test_starts(pytester):
    previous = pytester.path / "reports" / "results.json"
    previous.parent.mkdir()
    previous.write_text('{"tests": []}')
    assert verdict(pytester, GONE, "cot.previous-record-gone") == ("replicated", "")


def test_a_run_of_no_claim_keeps_the_previous_record(pytester):
    previous = pytester.path / "reports" / "results.json"
    previous.parent.mkdir()
    previous.write_text('{"tests": []}')
    run(pytester, "def test_plain():\n    pass\n")
    assert previous.read_text() == '{"tests": []}'
