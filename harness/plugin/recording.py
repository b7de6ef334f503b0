"""The run record: every test's entry (from workers too), whether the run completed, the report."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from harness import record as run_record
from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD, RECORD_PROPERTY

WRITTEN = pytest.StashKey[tuple[Path, dict[str, Any], Path]]()


class RecordCollector:
    """Controller-side: gathers entries, notes which selected tests ran, and writes the run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.record = config.stash[RECORD]
        self.selected: set[str] = set()
        self.ran: set[str] = set()

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
        from harness.history import archive
        from harness.report import write_report

        interrupted = exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop)
        self.record.finish(exit_status=int(exitstatus), interrupted=interrupted,
                           not_run=sorted(self.selected - self.ran))
        path = Path(self.config.getoption("results"))
        path = path if path.is_absolute() else self.config.rootpath / path
        data = self.record.write(path, dt.datetime.now(dt.timezone.utc))
        archive(path, path.parent / "history", data["environment"]["started"])
        self.config.stash[WRITTEN] = (path, data, write_report(path))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if WRITTEN not in config.stash:
        return
    path, data, html = config.stash[WRITTEN]
    terminalreporter.section("interp-claims")
    for line in run_record.status_table(data):
        terminalreporter.write_line(line)
    terminalreporter.write_line(f"run record: {path}")
    terminalreporter.write_line(f"report: {html}")
