"""In-process pytest runs of throw-away claim files (pytester), for the plugin's unit tests. The
modules a run imports are imported here first, since pytester drops those first imported inside
a run, which the next run would import again (seconds each; numpy's and pandas' refuse to); and
the page is not rendered (its template compiles anew each run), since these tests read the record."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hypothesis  # noqa: F401 (its pytest plugin imports it at the end of every run)
import pytest

import harness.plugin.suite  # noqa: F401
import harness.sources.cot.steps  # noqa: F401 (the declared steps of the sources claimed here)
import harness.sources.heads.steps  # noqa: F401
from harness.reporting import report

INI = "[pytest]\naddopts = -p no:cacheprovider --claims-profile=tiny --tb=no\n"  # no traceback

HEADER = '''
from typing import TypedDict

import pytest
from harness.claims import claim
from harness.criteria import Exact, IsPlanted, KnownAnswer


class Value(TypedDict):
    v: int


def finding(name, source="cot", **declared):
    """A model-free finding, whose published value applies on every profile."""
    return claim(f"{source}.{name}", **{"kind": "measurement", "section": "1", "needs": "cpu",
                                        "statement": "s", "published": {"v": 1},
                                        "provenance": "p", "criterion": Exact("v"), **declared})


def anchor(name, **declared):
    return finding(name, kind="anchor", **declared)


def measured(v: int) -> Value:
    return {"v": v}


def asserts() -> Value:
    """An experiment whose own check fails."""
    raise AssertionError("the experiment's own check")


def crashes() -> Value:
    raise ValueError("the experiment broke")


def skips() -> Value:
    pytest.skip("no tokenizer here")


@pytest.fixture
def setup_asserts():
    raise AssertionError("the fixture's check")


@pytest.fixture
def teardown_crashes():
    yield
    raise RuntimeError("the fixture's teardown")
'''


def run(tester: pytest.Pytester, body: str, *args: str, **kwargs: Any) -> pytest.RunResult:
    """Run HEADER + body as test_claims.py (on the tiny profile unless args name another),
    snapshots pinned anew unless args say --no-update; kwargs go to pytester's inline_run."""
    tester.makeini(INI)
    tester.makepyfile(test_claims=HEADER + body)
    update = [] if "--no-update" in args else ["--snapshot-update"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(report, "write_report",
                      lambda results, record: results.with_name("claims.html"))
        return tester.runpytest(*update, *[a for a in args if a != "--no-update"], **kwargs)


def entries(tester: pytest.Pytester, body: str, *args: str) -> dict[str, dict[str, Any]]:
    """Each test's entry in the record the run wrote, by claim id."""
    run(tester, body, *args)
    data = json.loads((tester.path / "reports" / "results.json").read_text())
    return {t["id"]: t for t in data["tests"]}


def verdict(tester: pytest.Pytester, body: str, claim_id: str, *args: str) -> tuple[str, str]:
    """The verdict and message of one claim in the run of `body`."""
    entry = entries(tester, body, *args)[claim_id]
    return entry["verdict"], entry["message"]


def pin(tester: pytest.Pytester, profile: str, claim_id: str, measured: dict[str, Any]) -> None:
    """A snapshot pinned as --snapshot-update writes it, named by the claim's id."""
    from harness.claim_tests import test_name
    from harness.snapshots import snapshot_path, snapshot_payload

    path = snapshot_path(Path(tester.path), profile, claim_id.split(".")[0], test_name(claim_id))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(snapshot_payload(claim_id, profile, measured)))
