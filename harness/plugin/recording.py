"""The run record: every test's entry (from workers too), whether the run completed, the report."""
from __future__ import annotations

import datetime as dt
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any, Callable

import pytest

from harness.cost import ledger
from harness.reporting import record as run_record
from harness.reporting import terminal
from harness.reporting.environment import environment
from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD_PROPERTY, SPEC, claims_session
from harness.profiles import Pinning

STARTED = pytest.StashKey[bool]()  # a claim test has started: the previous record is gone


def results_path(config: pytest.Config) -> Path:
    """Where this run's record goes (--results, relative to the root)."""
    path = Path(config.getoption("results"))
    return path if path.is_absolute() else config.rootpath / path


def _terminated(signum: int, frame: FrameType | None) -> None:
    """Raise what Ctrl-C raises, naming the signal."""
    raise KeyboardInterrupt(f"terminated by {signal.Signals(signum).name}")


def interrupt_on_sigterm() -> Callable[[], object]:
    """Make SIGTERM (a Slurm time limit, `timeout`, a runner's cancel) end the run as Ctrl-C does,
    so that what finished is recorded and the run marked partial (pytest's interrupted exit
    status, 2); return what restores the previous handler. Only the main thread can."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, _terminated)
    return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def pytest_runtest_protocol(item: pytest.Item) -> None:
    """When the first claim test starts (in whichever process runs it), the previous run's record
    is removed: a run that never writes its own (killed, or its write failed) leaves none that
    reads as current. Earlier runs stay in the history."""
    if SPEC in item.stash and not item.config.stash.get(STARTED, False):
        item.config.stash[STARTED] = True
        results_path(item.config).unlink(missing_ok=True)


def selection(config: pytest.Config) -> dict[str, Any]:
    """What the run selected: its marker and keyword expressions and the paths it was given
    (the ini's testpaths where none), so a run is compared only with runs of the same selection."""
    paths = list(config.args) or list(config.getini("testpaths")) or ["."]
    return {"markers": config.option.markexpr or "", "keywords": config.option.keyword or "",
            "paths": sorted(paths)}


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """On the controller, once the session object exists: start the run record and its collector."""
    if hasattr(config, "workerinput"):
        return
    session = claims_session(config)
    env = environment(session.profile.name.value, config.rootpath,
                                 dt.datetime.now(dt.timezone.utc), session.mode.value,
                                 session.backend)
    env["generalisation"] = session.profile.generalisation
    env["selection"] = selection(config)
    config.pluginmanager.register(RecordCollector(config, session.start_record(env)),
                                  "interp-claims-record")


class RecordCollector:
    """Controller-side: gathers entries, notes which selected tests ran, and writes the run."""

    def __init__(self, config: pytest.Config, record: run_record.RecordBuilder) -> None:
        self.config, self.record = config, record  # the session's, which each entry joins
        self.selected: set[str] = set()
        self.ran: set[str] = set()
        self.restore_sigterm: Callable[[], object] = lambda: None
        # results.json, its record and the page (None under --no-page), once written
        self.written: tuple[Path, run_record.RunRecord, Path | None] | None = None

    def pytest_sessionstart(self) -> None:
        self.restore_sigterm = interrupt_on_sigterm()

    def pytest_unconfigure(self) -> None:
        self.restore_sigterm()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.selected.update(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.selected.update(ids)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            self.ran.add(report.nodeid)
            for key, value in report.user_properties:
                if key == RECORD_PROPERTY:
                    self.record.add(dict(value))
                elif key == WORK_PROPERTY:
                    self.record.add_work(dict(value))

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.record.entries:
            return
        from harness.reporting.history import archive
        from harness.reporting.report import write_report

        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop)
        self.record.work_check = self.check_work()
        if any(c["fails"] for c in self.record.work_check.values()) and not exitstatus:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self.record.finish(exit_status=int(exitstatus), interrupted=interrupted,
                           not_run=sorted(self.selected - self.ran))
        path = results_path(self.config)
        record = self.record.write(path, dt.datetime.now(dt.timezone.utc))
        archive(record, path.parent / "history")
        page = None if self.config.getoption("no_page") else write_report(path, record=record)
        self.written = (path, record, page)

    def check_work(self) -> dict[str, dict[str, Any]]:
        """Each source's counted work against its pinned ledger; pinned anew by --snapshot-update.
        On a profile whose snapshots are required (the organisms), moved work fails the run."""
        profile, mode = claims_session(self.config).profile, claims_session(self.config).mode
        if profile.rules.pinning is Pinning.NONE:
            return {}
        updating = self.config.getoption("update_snapshots", False)
        checks = {}
        for source, counted in self.record.work.items():
            path = ledger.ledger_path(self.config.rootpath, profile.snapshot_name(mode), source,
                                      mode.value)
            if updating:
                ledger.write_ledger(path, counted)
            moved = ledger.differences(ledger.read_ledger(path), counted)
            checks[source] = {"ledger": str(path.relative_to(self.config.rootpath)),
                              "differences": moved,
                              "fails": bool(moved) and profile.rules.pinning is Pinning.REQUIRED}
        return checks

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The run's status table, its known answers, moved work, and where its record and page
        are."""
        if self.written is None:
            return
        path, record, html = self.written
        write = terminalreporter.write_line
        terminalreporter.section("interp-claims")
        for line in terminal.status_table(record):
            write(line)
        known = [t for t in record.in_order if t.known_answer]
        if known:
            missed = [t.id for t in known if t.known_answer["outcome"] == "missed"]
            write(f"known answers: {len(known) - len(missed)} recovered, {len(missed)} missed"
                  + (f" ({', '.join(missed)})" if missed else ""))
        for source, check in record.work_check.items():
            for line in check["differences"]:
                write(f"WORK MOVED {source} {line} (pinned in {check['ledger']}; re-pin with "
                      "--snapshot-update)")
        write(f"run record: {path}")
        if html is not None:
            write(f"report: {html}")
