"""What the rehearsal adds to each pytest run it starts (`-p harness.rehearsal.child`): each test's
record entry and counted work appended to a JSON-lines file as the test finishes (the path in
INTERP_CLAIMS_STREAM), so a run cut off keeps what it ran; and, at the published sizes, each
source's sizes as random weights need them (`on_random_weights`: heads' smoke block)."""
from __future__ import annotations

import dataclasses
import json
import os

import pytest

from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD_PROPERTY, claims_session

STREAM = "INTERP_CLAIMS_STREAM"
KINDS = {RECORD_PROPERTY: "entry", WORK_PROPERTY: "work"}


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    """At --rehearsal-sizes=published, each source's published sizes as random weights run them."""
    if config.getoption("rehearsal_sizes", None) != "published":
        return
    session = claims_session(config)
    sizes = {name: s.on_random_weights() if hasattr(s, "on_random_weights") else s
             for name, s in session.profile.sizes.items()}
    session.profile = dataclasses.replace(session.profile, sizes=sizes)


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
