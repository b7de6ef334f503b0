"""What the rehearsal adds to each pytest run it starts (`-p harness.rehearsal.child`): each test's
record entry and counted work appended to a JSON-lines file as the test finishes (the path in
INTERP_CLAIMS_STREAM), so a run cut off keeps what it ran."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import claims_session
from harness.reporting.record import crossing

STREAM = "INTERP_CLAIMS_STREAM"


def pytest_configure(config: pytest.Config) -> None:
    """Stream this run's tests where INTERP_CLAIMS_STREAM says, if it says."""
    path = os.environ.get(STREAM)
    if path:
        config.pluginmanager.register(Stream(config, Path(path)), "interp-claims-stream")


class Stream:
    """Appends each finished test's counted work (from its report) and the entries the run record
    gained since, each with the model its source loaded, one JSON object a line."""

    def __init__(self, config: pytest.Config, path: Path) -> None:
        self.config, self.path, self.streamed = config, path, 0

    @pytest.hookimpl(trylast=True)  # after an entry from an xdist worker has joined the record
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        record = claims_session(self.config).record
        entries = record.entries[self.streamed:] if record is not None else []
        self.streamed += len(entries)
        lines = [{"work": value} for key, value in report.user_properties if key == WORK_PROPERTY]
        lines += [{"entry": crossing(e, record.env["models"].get(e.source))} for e in entries]
        if lines:
            with open(self.path, "a") as stream:
                stream.write("".join(json.dumps(line, default=str) + "\n" for line in lines))
