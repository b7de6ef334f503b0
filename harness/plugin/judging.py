"""Judging: a claim's criterion gives its verdict; its snapshot gives drift, a separate fact."""
from __future__ import annotations

from typing import Any

import pytest

from harness.claims import ClaimSpec, Kind
from harness.nulls import evidence
from harness.organisms.common import read_manifest
from harness.plugin.device_audit import audited
from harness.plugin.entries import applies_published, entry_of
from harness.plugin.forcing import forced_notes
from harness.plugin.state import JUDGED, SPEC, TestState, claims_session
from harness.profiles import Pinning, Profile
from harness.readout_types import wrong_keys
from harness.snapshots import check_snapshot, snapshot_path, snapshot_payload
from harness.values import plain
from harness.verdicts import Failure, Judged, UnreadableFile


def _message(report: pytest.TestReport, call: pytest.CallInfo[None], state: TestState) -> str:
    """The judge's words where it failed the test (a claim's body is its one call, so what it
    raised is the judge's); else a skip's reason or the crash's line."""
    if report.when == "call" and state.judged is not None:
        return str(call.excinfo.value)
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(report.longrepr, "reprcrash", None)
    return crash.message if crash is not None else str(report.longrepr or "")


def _failure(report: pytest.TestReport, call: pytest.CallInfo[None], state: TestState) -> Failure:
    """What the judge decided where it failed the test (its criterion or an anchor's holds, a
    missed known answer, drift alone); else a crash: any exception the judge did not raise, an
    assertion included, in any phase. An exception only marks the test failed: which failure it
    is, the judge alone writes."""
    if report.when == "call" and call.excinfo is not None and state.judged is not None:
        return state.judged
    return Failure.CRASH


def _decides(report: pytest.TestReport, state: TestState) -> bool:
    """Whether this phase's report decides the test's outcome: the first that did not pass, and
    a crash in teardown after any other outcome (a crash is never a verdict on the finding)."""
    if report.passed:
        return False
    crashed = state.outcome == "failed" and state.failure is Failure.CRASH
    return state.outcome == "passed" or (report.when == "teardown" and not crashed)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report: pytest.TestReport = audited(item, (yield))
    spec = item.stash.get(SPEC, None)
    if spec is None:
        return report
    session = claims_session(item.config)
    state = session.test_state(item.nodeid)
    state.duration += report.duration
    if _decides(report, state):
        state.outcome = "skipped" if report.skipped else "failed"
        state.message = _message(report, call, state)
        state.failure = _failure(report, call, state)
    if spec.kind is Kind.ANCHOR and (report.when == "call" or not report.passed):  # teardown too
        session.anchor_ended(spec.id, state.outcome, state.message)
    if report.when == "teardown":
        session.add_entry(report, entry_of(item, spec, state))
    return report


def _not_applicable(spec: ClaimSpec) -> str:
    if not spec.published:
        return "not applicable (the seed publishes no value for this measurement)"
    return f"not applicable (published values are for {spec.source.model})"


class Judge:
    """Records a test's measured values, applies its criterion, and compares its snapshot, all
    written on the test's state in the session; where one fails the test, writes which (its
    Failure) there too, then raises Judged, which only marks the test failed."""

    def __init__(self, item: pytest.Item, snapshot: Any) -> None:
        self.item, self.snapshot = item, snapshot
        self.spec: ClaimSpec = item.stash[SPEC]
        self.profile: Profile = claims_session(item.config).profile

    def __call__(self, measured: dict[str, Any]) -> None:
        typed = self.item.stash.get(JUDGED, None)
        wrong = wrong_keys(measured, typed) if typed is not None else []
        if wrong:
            raise TypeError(f"{self.spec.id}: the readout's dict is not the {typed.__name__} it "
                            f"declares: {'; '.join(wrong)}")
        state = claims_session(self.item.config).test_state(self.item.nodeid)
        state.measured = plain(measured)
        not_replicated = None
        applies = applies_published(self.profile, self.spec)
        if applies:
            check = self.spec.criterion.judge(state.measured, self.spec.published)
            state.criterion_check = {"ok": check.ok, "detail": check.detail}
            if not check.ok:
                not_replicated = f"{self.spec.id} not replicated: {check.detail}"
        else:
            state.criterion_check = {"ok": None, "detail": _not_applicable(self.spec)}
        state.sensitivity, state.null_check = evidence(self.spec.criterion, self.spec.published,
                                                       state.measured, self.spec.null)
        failures = ((Failure.CRITERION, self._check_holds(state, applies) or not_replicated),
                    (Failure.KNOWN_ANSWER, self._check_known_answer(state)),
                    (Failure.DRIFT, self._compare_snapshot(state)))
        for failure, why in failures:
            if why and (failure is not Failure.DRIFT or self._drift_fails()):
                state.judged = failure
                raise Judged(why)

    def _check_holds(self, state: TestState, published_values_apply: bool) -> str | None:
        """An anchor's declared Holds: a mechanical one on every profile; a behavioural one only
        where the published values do not apply (there, the published criterion judges the
        behaviour) and not on rows forced past a behavioural filter."""
        holds = self.spec.holds
        if holds is None:
            return None
        if holds.behavioural and published_values_apply:
            state.holds_check = {"ok": None, "detail": "not judged: a behavioural check, which "
                                 "the published criterion makes where the published values apply"}
            return None
        if holds.behavioural and not self.profile.rules.competent:
            state.holds_check = {"ok": None, "detail": "not judged: a behavioural check, on "
                                 "random weights that answer no task"}
            return None
        if holds.behavioural and forced_notes(self.item):
            state.holds_check = {"ok": None, "detail": "not judged: a behavioural check on rows "
                                 "forced past a behavioural filter"}
            return None
        check = holds.criterion.judge(state.measured, self.spec.published)
        state.holds_check = {"ok": check.ok, "detail": check.detail}
        return None if check.ok else f"{self.spec.id} does not hold: {check.detail}"

    def _check_known_answer(self, state: TestState) -> str | None:
        """On an organism whose manifest plants what this claim measures: recovered or missed."""
        known = self.spec.known_answer
        model = self.profile.models.get(self.spec.source_name)
        if known is None or model is None or not model.organism:
            return None
        planted = read_manifest(model.organism, self.spec.source.organisms_dir).get("planted", {})
        if known.planted not in planted:
            raise UnreadableFile(f"{self.spec.id} declares a known answer against the planted "
                                 f"{known.planted!r}, which the {model.organism} organism's "
                                 f"manifest lacks (it plants {sorted(planted) or 'nothing'}): "
                                 f"rebuild it with `interp-claims organisms "
                                 f"{self.spec.source_name}`")
        check = known.criterion.judge(state.measured, planted)
        outcome = "recovered" if check.ok else "missed"
        state.known_answer = {"planted": {known.planted: planted[known.planted]},
                              "detail": check.detail, "outcome": outcome}
        if check.ok:
            return None
        return f"{self.spec.id} missed the organism's planted {known.planted}: {check.detail}"

    def _drift_fails(self) -> bool:
        """On organisms drift is a regression of the suite; on the published profile, opt-in."""
        pinning = self.profile.rules.pinning
        return pinning is Pinning.REQUIRED or (pinning is Pinning.SHOWN
                                               and self.item.config.getoption("fail_on_drift"))

    def _compare_snapshot(self, state: TestState) -> str | None:
        # Recorded on every profile: a snapshot compares within it, and so do two runs (the
        # canary, the meta tests' paired runs), pinned or not.
        floats, why = self.spec.float_tolerance(self.profile.published_values_apply)
        state.tolerance = {"floats": floats.as_record(), "why": why,
                           "exact": "counts, token ids, booleans and strings"}
        if self.profile.rules.pinning is Pinning.NONE:
            return None
        root = self.item.config.rootpath
        name = self.profile.snapshot_name(claims_session(self.item.config).mode)
        state.snapshot = check_snapshot(
            self.snapshot, claims_session(self.item.config).snapshots, self.item.nodeid,
            snapshot_path(root, name, self.spec.source_name, self.item.name),
            snapshot_payload(self.spec.id, name, state.measured), floats,
            updating=self.item.config.getoption("update_snapshots", False),
            required=self.profile.rules.pinning is Pinning.REQUIRED)
        failure = state.snapshot.failure
        return f"{self.spec.id}: {failure}" if failure else None


@pytest.fixture
def judge(request: pytest.FixtureRequest, snapshot: Any) -> Judge:
    """Call judge(measured_dict) once in a claim test to record, snapshot and judge it."""
    if SPEC not in request.node.stash:
        raise pytest.UsageError(f"{request.node.nodeid} uses judge but carries no @claim")
    return Judge(request.node, snapshot)
