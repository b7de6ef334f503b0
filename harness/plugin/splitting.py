"""More xdist workers than sources: each source's independent experiment fixtures (its `units`)
also run as items of their own (claims/<source>/test_units.py), which the scheduler gives to
spare workers, and the steps they share go through an on-disk store (harness/step_store.py). Every
anchor and claim still runs in its source's worker, anchors first; a claim whose step a spare
worker computed reads it from the store (docs/cost-and-scaling.md, "Beyond one GPU")."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

from harness.plugin.state import SPEC, claims_session
from harness.registry import registered
from harness.step_store import STORED

STORE_INPUT = "interp_claims_step_store"  # the workerinput key carrying the store's directory
UNITS_FILE = "test_units.py"


def worker_count(config: pytest.Config) -> int:
    """How many xdist workers this run has (0 without xdist)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return int(workerinput["workercount"])
    count = getattr(config.option, "numprocesses", None)
    return count if isinstance(count, int) else 0


def is_unit(nodeid: str) -> bool:
    return nodeid.split("::", 1)[0].endswith("/" + UNITS_FILE)


def make_store(config: pytest.Config) -> None:
    """On the controller of an xdist run, one store directory for the run's workers."""
    if worker_count(config) and not hasattr(config, "workerinput"):
        claims_session(config).make_store_dir()


def give_store(node: Any) -> None:
    """Hand an xdist worker the run's store directory."""
    store_dir = claims_session(node.config).store_dir
    if store_dir is not None:
        node.workerinput[STORE_INPUT] = str(store_dir)


def remove_store(config: pytest.Config) -> None:
    claims_session(config).remove_store_dir()


def select_units(config: pytest.Config, items: list[pytest.Item]) -> list[pytest.Item]:
    """The unit items to drop: all of them unless the workers outnumber the sources with selected
    tests, and any whose step no selected test of its source needs. Where units stay, this
    worker's fixtures share their steps through the store."""
    sources = {it.stash[SPEC].source_name for it in items if SPEC in it.stash}
    split = worker_count(config) > len(sources)
    needed = {(it.stash[SPEC].source_name, name) for it in items if SPEC in it.stash
              for name in getattr(it, "fixturenames", ())}
    dropped = [it for it in items if is_unit(it.nodeid)
               and not (split and (_unit_source(it), it.callspec.params["step"]) in needed)]
    if split and len(dropped) < sum(is_unit(it.nodeid) for it in items):
        store = getattr(config, "workerinput", {}).get(STORE_INPUT)
        if store is not None:
            claims_session(config).open_store(Path(store))
    return dropped


def _unit_source(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0].split("/")[-2]


def stored(config: pytest.Config, source: str, fixturedef: pytest.FixtureDef) -> None:
    """Route a source's unit or shared fixture through the run's store, once per fixture."""
    store = claims_session(config).store
    spec = registered().get(source)
    if (store is None or spec is None or getattr(fixturedef.func, STORED, False)
            or fixturedef.argname not in (*spec.units, *spec.shared_steps)):
        return
    fixturedef.func = store.shared(source, fixturedef.argname, fixturedef.func)


def unit_tests(source: str) -> Callable[..., None]:
    """claims/<source>/test_units.py's test: one item per unit, each computing its step into the
    store on whichever worker the scheduler gives it (deselected unless units split)."""
    @pytest.mark.parametrize("step", registered()[source].units)
    def test_unit(step: str, request: pytest.FixtureRequest) -> None:
        request.getfixturevalue(step)
        store = claims_session(request.config).store
        assert store is not None and store.holds(source, step), (
            f"{source}'s step {step} ran outside the step store (worker "
            f"{os.environ.get('PYTEST_XDIST_WORKER')})")

    return test_unit
