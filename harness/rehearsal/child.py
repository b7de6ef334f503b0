"""What the rehearsal adds to each pytest run it starts (`-p harness.rehearsal.child`): each test's
record entry and counted work appended to a JSON-lines file as the test finishes (the path in
INTERP_CLAIMS_STREAM), so a run cut off keeps what it ran."""
from __future__ import annotations

import json
import os

import pytest

from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD_PROPERTY

STREAM = "INTERP_CLAIMS_STREAM"
KINDS = {RECORD_PROPERTY: "entry", WORK_PROPERTY: "work"}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Append a finished test's entry and counted work to the stream, one JSON object a line."""
    path = os.environ.get(STREAM)
    if not path or report.when != "teardown":
        return
    lines = [json.dumps({KINDS[key]: value}, default=str) + "\n"
             for key, value in report.user_properties if key in KINDS]
    if lines:
        with open(path, "a") as stream:
            stream.write("".join(lines))
