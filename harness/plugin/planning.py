"""`pytest --plan`: print the cost plan of the collected claims and run nothing."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.cost import build as plan_build
from harness.cost import split as plan_split
from harness.cost import table as plan_table
from harness.cost.plan import GPUS, Assumptions
from harness.plugin.state import SPEC, claims_session
from harness.private import fixture_definitions
from harness.snapshots import read_snapshot, snapshot_path


def _fixture_deps(items: list[pytest.Item]) -> dict[str, frozenset[str]]:
    """Each fixture the items use, with the fixtures it asks for directly."""
    return {name: frozenset(defs[-1].argnames) for item in items
            for name, defs in fixture_definitions(item).items()}


def _values(items: list[pytest.Item], root) -> tuple[Any, Any]:
    specs = {item.stash[SPEC].id: (item.stash[SPEC], item.name) for item in items}

    def published(claim: str, key: str) -> Any:
        return specs[claim][0].published[key]

    def pinned(claim: str, key: str) -> Any:
        spec, name = specs[claim]
        return read_snapshot(snapshot_path(root, "tiny", spec.source_name, name))["measured"][key]

    return published, pinned


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    config = session.config
    if not config.getoption("plan"):
        return None
    items = [i for i in session.items if SPEC in i.stash]
    uses = [plan_build.ClaimUse(i.stash[SPEC].id, i.stash[SPEC].source_name,
                                frozenset(i.fixturenames)) for i in items]
    if config.getoption("plan_gpu") not in GPUS:
        raise pytest.UsageError(f"--plan-gpu {config.getoption('plan_gpu')!r}: one of "
                                f"{', '.join(sorted(GPUS))}")
    gpu, fitted = GPUS[config.getoption("plan_gpu")], config.getoption("plan_calibration")
    utilisation, overhead_ms = config.getoption("plan_utilisation"), config.getoption(
        "plan_overhead_ms")
    a = (plan_build.calibrated(Path(fitted), gpu) if fitted else
         Assumptions(gpu, Assumptions.utilisation if utilisation is None else utilisation,
                     Assumptions.overhead_s if overhead_ms is None else overhead_ms / 1000))
    profile = claims_session(config).profile
    published, pinned = _values(items, config.rootpath)
    built = plan_build.build(config.rootpath, profile, uses, a, published, pinned, fitted)
    built = replace(built, split=plan_split.figures(built, _fixture_deps(items),
                                                    config.getoption("plan_gpus")))
    plan_build.write(built, config.rootpath / "reports" / f"plan-{profile.name.value}.json")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    for line in [*plan_table.lines(built), *plan_split.lines(built.split)]:
        reporter.write_line(line)
    return True
