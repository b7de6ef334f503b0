"""The pytest plugin: profiles, claim markers, anchor blocking, snapshots, verdicts, run record."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from harness import record as run_record
from harness.claims import ClaimSpec, Kind, Needs, spec_of
from harness.profiles import Profile, ProfileName, get_profile
from harness.snapshots import (Comparison, ComparisonLog, extension_for, snapshot_path,
                               snapshot_payload)
from harness.values import plain
from harness.verdicts import BLOCKED_PREFIX, NotReplicated, SnapshotDrift, verdict_for

MARKERS = {
    "gpu": "needs CUDA and the published weights",
    "hub": "needs the published tokenizer or weights files (hub or a warm Hugging Face cache)",
    "anchor": "checks the experiment's own machinery; claims that require it are blocked if it fails",
    "claim": "a published scientific finding",
    "measurement": "a number the notebook reports about its own method",
    "slow": "takes minutes (organism re-training)",
}

SPEC = pytest.StashKey[ClaimSpec]()
STATE = pytest.StashKey["TestState"]()
PROFILE = pytest.StashKey[Profile]()
ANCHORS = pytest.StashKey[dict[str, tuple[str, str]]]()
DESELECTED = pytest.StashKey[list[pytest.Item]]()
RECORD = pytest.StashKey[run_record.RunRecord]()
RECORD_PROPERTY = "interp_claims"


@dataclass
class TestState:
    """What one claim test produced: phases, measured values, criterion and snapshot outcome."""

    outcome: str = "passed"
    message: str = ""
    failure_is_assertion: bool = True
    duration: float = 0.0
    measured: dict[str, Any] | None = None
    criterion_check: dict[str, Any] | None = None
    snapshot: ComparisonLog = field(default_factory=ComparisonLog)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("interp-claims")
    group.addoption("--profile", choices=[p.value for p in ProfileName], default=None,
                    help="published (the notebooks' models, CUDA) or tiny (CPU organisms); "
                         "default: published with CUDA or when -m selects gpu/hub, else tiny")
    group.addoption("--results", default="reports/results.json",
                    help="where the run record is written (relative to the rootdir)")


def _selects_published(markexpr: str) -> bool:
    words = markexpr.replace("(", " ").replace(")", " ").split()
    for i, w in enumerate(words):
        if w in ("gpu", "hub") and not (i > 0 and words[i - 1] == "not"):
            return True
    return False


def resolve_profile(config: pytest.Config) -> Profile:
    """--profile if given; published when -m asks for gpu/hub tests or CUDA exists; else tiny."""
    chosen = config.getoption("profile")
    if chosen:
        return get_profile(chosen)
    if _selects_published(config.getoption("markexpr") or ""):
        return get_profile("published")
    import torch

    return get_profile("published" if torch.cuda.is_available() else "tiny")


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.stash[PROFILE] = resolve_profile(config)
    config.stash[ANCHORS] = {}
    config.stash[DESELECTED] = []
    if getattr(config.option, "dist", "no") == "load":
        # One worker per source, so its model loads once and its anchors run before its claims.
        # Each source's tests live in one module, so loadfile groups them. (xdist 3.8's loadgroup
        # renames Item._nodeid, which pytest 9.2 no longer reads, so its groups silently split.)
        config.option.dist = "loadfile"
    if not hasattr(config, "workerinput"):
        env = run_record.environment(config.stash[PROFILE].name.value, config.rootpath,
                                     dt.datetime.now(dt.timezone.utc))
        config.stash[RECORD] = run_record.RunRecord(env)
        config.pluginmanager.register(RecordCollector(config), "interp-claims-record")


def pytest_report_header(config: pytest.Config) -> str:
    return f"interp-claims profile: {config.stash[PROFILE].name.value}"


@pytest.fixture(scope="session")
def profile(request: pytest.FixtureRequest) -> Profile:
    """The profile this session runs on."""
    return request.config.stash[PROFILE]


def pytest_itemcollected(item: pytest.Item) -> None:
    spec = spec_of(getattr(item, "function", None))
    if spec is None:
        return
    item.stash[SPEC] = spec
    item.add_marker(pytest.mark.anchor if spec.kind is Kind.ANCHOR else
                    pytest.mark.measurement if spec.kind is Kind.MEASUREMENT else pytest.mark.claim)
    if spec.needs is not Needs.CPU:
        item.add_marker(getattr(pytest.mark, spec.needs.value))
    item.add_marker(pytest.mark.xdist_group(name=spec.source_name))
    item.extra_keyword_matches.add(spec.id)


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        items[0].config.stash[DESELECTED].extend(items)


def resource_reason(item: pytest.Item, spec: ClaimSpec) -> str | None:
    """Why this test cannot run its published form on this machine (None on tiny or if it can)."""
    prof = item.config.stash[PROFILE]
    if not prof.published or spec.needs is Needs.CPU:
        return None
    model = prof.models.get(spec.source_name)
    if model is None:
        return f"the published profile has no model for source {spec.source_name!r}"
    from harness.resources import published_reason

    return published_reason(model, spec.needs.value)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Bring back deselected anchors that selected, runnable claims require; run anchors first."""
    by_id = {it.stash[SPEC].id: it for it in [*items, *config.stash[DESELECTED]] if SPEC in it.stash}
    selected = set(map(id, items))
    wanted: list[pytest.Item] = []
    stack = [it for it in items if SPEC in it.stash and resource_reason(it, it.stash[SPEC]) is None]
    while stack:
        for anchor_id in stack.pop().stash[SPEC].requires:
            anchor = by_id.get(anchor_id)
            if anchor is not None and id(anchor) not in selected:
                selected.add(id(anchor))
                wanted.append(anchor)
                stack.append(anchor)
    items.extend(wanted)
    first_seen: dict[str, int] = {}
    for i, it in enumerate(items):
        first_seen.setdefault(_group(it), i)
    order = {id(it): i for i, it in enumerate(items)}
    items.sort(key=lambda it: (first_seen[_group(it)], _level(it, by_id), order[id(it)]))


def _group(item: pytest.Item) -> str:
    return item.stash[SPEC].source_name if SPEC in item.stash else item.nodeid.split("::")[0]


def _level(item: pytest.Item, by_id: dict[str, pytest.Item], seen: frozenset[str] = frozenset()) -> int:
    """Anchors come before whatever requires them, however deep the chain; claims after anchors."""
    if SPEC not in item.stash:
        return 0
    spec = item.stash[SPEC]
    below = [_level(by_id[a], by_id, seen | {spec.id}) for a in spec.requires
             if a in by_id and a not in seen]
    own = 1 + max(below, default=0)
    return own if spec.kind is Kind.ANCHOR else max(own, 1_000)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    spec = item.stash.get(SPEC, None)
    if spec is None:
        return
    item.stash[STATE] = TestState()
    reason = resource_reason(item, spec)
    if reason:
        pytest.skip(reason)
    outcomes = item.config.stash[ANCHORS]
    for anchor_id in spec.requires:
        status, message = outcomes.get(anchor_id, ("absent", "the anchor was not run in this session"))
        if status != "passed":
            pytest.skip(f"{BLOCKED_PREFIX}{anchor_id}: {message}")


def _message(report: pytest.TestReport) -> str:
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(report.longrepr, "reprcrash", None)
    return crash.message if crash is not None else str(report.longrepr or "")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report: pytest.TestReport = yield
    spec = item.stash.get(SPEC, None)
    if spec is None:
        return report
    state = item.stash.setdefault(STATE, TestState())
    state.duration += report.duration
    if state.outcome == "passed" and not report.passed:
        state.outcome = "skipped" if report.skipped else "failed"
        state.message = _message(report)
        state.failure_is_assertion = report.when == "call" and call.excinfo is not None and \
            call.excinfo.errisinstance(AssertionError)
    if spec.kind is Kind.ANCHOR and report.when in ("setup", "call") and not report.passed:
        item.config.stash[ANCHORS][spec.id] = (state.outcome, state.message.splitlines()[0]
                                               if state.message else state.outcome)
    elif spec.kind is Kind.ANCHOR and report.when == "call":
        item.config.stash[ANCHORS][spec.id] = ("passed", "")
    if report.when == "teardown":
        report.user_properties.append((RECORD_PROPERTY, _entry(item, spec, state)))
    return report


def applies_published(prof: Profile, spec: ClaimSpec) -> bool:
    """Published values apply on the published profile, and to model-free [cpu] checks anywhere;
    a test with no published value has nothing to apply."""
    return bool(spec.published) and (prof.published or spec.needs is Needs.CPU)


def _not_applicable(spec: ClaimSpec) -> str:
    if not spec.published:
        return "not applicable (the seed publishes no value for this measurement)"
    return f"not applicable (published values are for {spec.source.model})"


def _entry(item: pytest.Item, spec: ClaimSpec, state: TestState) -> dict[str, Any]:
    prof = item.config.stash[PROFILE]
    verdict = verdict_for(state.outcome, skip_reason=state.message,
                          published_profile=applies_published(prof, spec),
                          failure_is_assertion=state.failure_is_assertion)
    decl = spec.as_record()
    entry = {
        "nodeid": item.nodeid, **{k: decl[k] for k in ("id", "kind", "source", "statement",
                                                      "section", "published", "provenance",
                                                      "criterion", "requires", "decisions",
                                                      "needs")},
        "verdict": verdict.value, "outcome": state.outcome,
        "message": state.message.splitlines()[0] if state.message else "",
        "measured": state.measured, "criterion_check": state.criterion_check,
        "snapshot": state.snapshot.comparison.value if state.snapshot.comparison else None,
        "duration": round(state.duration, 3),
        "model": run_record.LOADED_MODELS.get(spec.source_name),
    }
    if verdict.value == "not applicable":
        entry["message"] = _not_applicable(spec)
    return json.loads(json.dumps(entry, default=str))


class RecordCollector:
    """Controller-side: gathers every test's record entry (from workers too) and writes the run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.record = config.stash[RECORD]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            for key, value in report.user_properties:
                if key == RECORD_PROPERTY:
                    self.record.add(dict(value))

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.record.entries:
            return
        from harness.history import archive
        from harness.report import write_report

        path = Path(self.config.getoption("results"))
        path = path if path.is_absolute() else self.config.rootpath / path
        data = self.record.write(path, dt.datetime.now(dt.timezone.utc))
        archive(path, path.parent / "history", data["environment"]["started"])
        self.config.stash[WRITTEN] = (path, data, write_report(path))


WRITTEN = pytest.StashKey[tuple[Path, dict[str, Any], Path]]()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if WRITTEN not in config.stash:
        return
    path, data, html = config.stash[WRITTEN]
    terminalreporter.section("interp-claims")
    for line in run_record.status_table(data):
        terminalreporter.write_line(line)
    terminalreporter.write_line(f"run record: {path}")
    terminalreporter.write_line(f"report: {html}")


class Judge:
    """Records a test's measured values, compares its snapshot, and applies its criterion."""

    def __init__(self, item: pytest.Item, snapshot: Any) -> None:
        self.item, self.snapshot = item, snapshot
        self.spec: ClaimSpec = item.stash[SPEC]
        self.profile: Profile = item.config.stash[PROFILE]

    def __call__(self, measured: dict[str, Any]) -> None:
        state = self.item.stash[STATE]
        state.measured = plain(measured)
        failures: list[AssertionError] = []
        if applies_published(self.profile, self.spec):
            check = self.spec.criterion.judge(state.measured, self.spec.published)
            state.criterion_check = {"ok": check.ok, "detail": check.detail}
            if not check.ok:
                failures.append(NotReplicated(f"{self.spec.id} not replicated: {check.detail}"))
        else:
            state.criterion_check = {"ok": None, "detail": _not_applicable(self.spec)}
        drift = self._compare_snapshot(state)
        if drift:
            failures.append(drift)
        if failures:
            raise failures[0]

    def _compare_snapshot(self, state: TestState) -> SnapshotDrift | None:
        root = self.item.config.rootpath
        name = self.profile.name.value
        tolerance = self.spec.tolerance if self.profile.published else type(self.spec.tolerance)()
        existed = snapshot_path(root, name, self.spec, self.item.name).exists()
        updating = self.item.config.getoption("update_snapshots", False)
        if not existed and self.profile.published and not updating:
            # A first replication has nothing to drift from: its verdict is the criterion's.
            state.snapshot.comparison = Comparison.NEW
            return None
        ext = extension_for(root, name, self.spec, tolerance, state.snapshot)
        matched = self.snapshot.use_extension(ext) == snapshot_payload(self.spec, name, state.measured)
        if not existed:
            state.snapshot.comparison = Comparison.NEW
        if matched:
            return None
        if state.snapshot.comparison is Comparison.NEW:
            return SnapshotDrift(f"{self.spec.id}: no pinned snapshot yet; run with --snapshot-update")
        return SnapshotDrift(f"{self.spec.id}: measured values left the snapshot's tolerance: "
                             + "; ".join(state.snapshot.differences[:5]))


@pytest.fixture
def judge(request: pytest.FixtureRequest, snapshot: Any) -> Judge:
    """Call judge(measured_dict) once in a claim test to record, snapshot and judge it."""
    if SPEC not in request.node.stash:
        raise pytest.UsageError(f"{request.node.nodeid} uses judge but carries no @claim")
    return Judge(request.node, snapshot)
