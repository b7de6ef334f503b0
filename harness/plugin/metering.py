"""The work each experiment fixture of a source's claims folder asked of the models, attributed
to the test that set it up and carried to the run record (from xdist workers too); the fixture
itself runs on the experiment thread (`experiment_thread.py`)."""
from __future__ import annotations

import dataclasses
import os
import time

import pytest

from harness.plugin.experiment_thread import on_experiment_thread
from harness.plugin.splitting import stored
from harness.registry import registered
from harness.models.work import METER

WORK_PROPERTY = "interp_claims_work"


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    source = fixturedef.baseid.rstrip("/").split("/")[-1]
    if (source in registered() and not getattr(fixturedef.func, "on_experiment_thread", False)
            and not request.config.getoption("device_audit")):
        fixturedef.func = on_experiment_thread(fixturedef.func)
    stored(request.config, source, fixturedef)
    before, started = dataclasses.replace(METER.total), time.perf_counter()
    try:
        return (yield)
    finally:
        done = METER.total - before
        item = getattr(request, "_pyfuncitem", None)
        if done.forwards and item is not None and source in registered():
            item.user_properties.append((WORK_PROPERTY, {"source": source,
                                                         "step": fixturedef.argname,
                                                         "worker": os.environ.get(
                                                             "PYTEST_XDIST_WORKER"),
                                                         "seconds": round(time.perf_counter()
                                                                          - started, 3),
                                                         **done.as_record()}))
