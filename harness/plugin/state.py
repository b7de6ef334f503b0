"""What the plugin's parts share: one session object in one stash key (syrupy's
SnapshotSession), which owns each running test's state; one test's spec and device-audit findings
in its item's stash."""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

from harness.reporting import record as run_record
from harness.models.backends import Backend
from harness.claims import ClaimSpec
from harness.profiles import Mode, Profile
from harness.snapshots import ClaimSnapshot, SnapshotCheck, session_extension
from harness.step_store import StepStore
from harness.verdicts import Failure

RECORD_PROPERTY = "interp_claims"


@dataclass
class TestState:
    """What one claim test produced: phases, measured values, criterion, snapshot and drift."""

    outcome: str = "passed"
    message: str = ""
    failure: Failure = Failure.CRITERION
    judged: Failure | None = None  # the failure its judge decided (judging.Judge), if it failed it
    duration: float = 0.0
    measured: dict[str, Any] | None = None
    criterion_check: dict[str, Any] | None = None
    holds_check: dict[str, Any] | None = None  # an anchor's Holds
    known_answer: dict[str, Any] | None = None  # an organism's planted value, recovered or missed
    snapshot: SnapshotCheck = SnapshotCheck()
    tolerance: dict[str, Any] | None = None
    sensitivity: list[dict[str, Any]] | None = None  # what its criterion could detect, by part
    null_check: dict[str, Any] | None = None  # whether its criterion accepts the declared null


@dataclass
class ClaimsSession:
    """One pytest session's state: its profile, mode and backend, what blocking, judging, forcing,
    loading, splitting and release learn as tests run, each running claim test's state (which its
    judge writes), and, on the controller, the run record, which each test's entry joins as it
    finishes (`add_entry`). The plugin's parts read its fields and change them only through its
    methods."""

    profile: Profile
    mode: Mode
    backend: Backend
    retarget_reasons: dict[str, str]  # --model: the sources it could not re-target
    backend_reasons: dict[str, str | None] = field(default_factory=dict)  # --backend=ndif, per source
    anchors: dict[str, tuple[str, str]] = field(default_factory=dict)  # anchor id: outcome, message
    deselected: list[pytest.Item] = field(default_factory=list)
    models: dict[str, dict[str, Any]] = field(default_factory=dict)  # each loaded source's provenance
    forced: dict[str, str] = field(default_factory=dict)  # fixture name: what it forced
    record: run_record.RecordBuilder | None = None  # the controller's; None on an xdist worker
    store: StepStore | None = None  # a worker's shared step store (splitting.py)
    store_dir: Path | None = None  # the controller's store, removed when the run ends
    package_torn_down: bool = False  # since the last garbage collection (release.py)
    snapshots: type[ClaimSnapshot] = field(default_factory=session_extension)
    tests: dict[str, TestState] = field(default_factory=dict)  # each running claim test's, by nodeid

    def deselect(self, items: list[pytest.Item]) -> None:
        """Items pytest deselected: the anchors among them that selected claims require come back
        (blocking.py), and every claim's declaration is checked (guards.py)."""
        self.deselected.extend(items)

    def with_deselected(self, items: Iterable[pytest.Item]) -> list[pytest.Item]:
        """`items` and every item deselected so far."""
        return [*items, *self.deselected]

    def backend_reason(self, source: str, reason: Callable[[], str | None]) -> str | None:
        """Why `source`'s tests do not run on the session's backend: `reason()`, asked once."""
        if source not in self.backend_reasons:
            self.backend_reasons[source] = reason()
        return self.backend_reasons[source]

    def force(self, fixture: str, note: str) -> None:
        """A fixture took rows past a behavioural filter that kept none (forcing.py): what it took."""
        self.forced[fixture] = note

    def forced_notes(self, fixtures: Iterable[str]) -> list[str]:
        """What the `fixtures` a test reads forced past a behavioural filter (none: [])."""
        return [self.forced[name] for name in fixtures if name in self.forced]

    def model_loaded(self, source: str, provenance: dict[str, Any]) -> None:
        """A source's model, loaded: its provenance goes with each of its entries."""
        self.models[source] = provenance

    def package_ended(self) -> None:
        """A package fixture was torn down (a source's folder done: release.py)."""
        self.package_torn_down = True

    def take_package_end(self) -> bool:
        """Whether a package fixture was torn down since this was last asked."""
        ended, self.package_torn_down = self.package_torn_down, False
        return ended

    def start_record(self, env: dict[str, Any]) -> run_record.RecordBuilder:
        """On the controller: the run record, which each finished test's entry joins."""
        self.record = run_record.RecordBuilder(env)
        return self.record

    def make_store_dir(self) -> None:
        """On the controller: the directory of the run's step store (splitting.py)."""
        self.store_dir = Path(tempfile.mkdtemp(prefix="interp-claims-steps-"))

    def open_store(self, directory: Path) -> None:
        """On a worker: the run's step store, in the `directory` the controller made."""
        self.store = StepStore(directory)

    def remove_store_dir(self) -> None:
        """Remove the controller's store directory, if it made one."""
        if self.store_dir is not None:
            shutil.rmtree(self.store_dir, ignore_errors=True)

    def anchor_ended(self, anchor_id: str, outcome: str, message: str) -> None:
        """What an anchor's phase left, for the tests that require it: its outcome and the first
        line of its message (the outcome where it has none)."""
        self.anchors[anchor_id] = (outcome, message.splitlines()[0] if message else outcome)

    def anchor_outcome(self, anchor_id: str) -> tuple[str, str]:
        """An anchor's outcome and message in this session ("absent" where it did not run)."""
        return self.anchors.get(anchor_id, ("absent", "the anchor was not run in this session"))

    def test_started(self, nodeid: str) -> TestState:
        """A claim test's state, fresh as its setup begins (a rerun starts again)."""
        self.tests[nodeid] = TestState()
        return self.tests[nodeid]

    def test_state(self, nodeid: str) -> TestState:
        """A running claim test's state: what its phases and its judge have written so far."""
        return self.tests.setdefault(nodeid, TestState())

    def add_entry(self, report: pytest.TestReport, entry: run_record.Entry) -> None:
        """A finished test's entry, its state dropped: into the record as it is on the
        controller; from an xdist worker (which keeps none), as plain JSON in its report, the one
        crossing."""
        self.tests.pop(entry.nodeid, None)
        model = self.models.get(entry.source)
        if self.record is None:
            report.user_properties.append((RECORD_PROPERTY, run_record.crossing(entry, model)))
        else:
            self.record.add_entry(entry, model)


SESSION = pytest.StashKey[ClaimsSession]()
SPEC = pytest.StashKey[ClaimSpec]()
JUDGED = pytest.StashKey[type]()  # the TypedDict a claim's readout returns (readout_check.py)
AUDIT = pytest.StashKey[list[str]]()  # --device-audit's findings in one test


def claims_session(config: pytest.Config) -> ClaimsSession:
    """The session object pytest_configure made for `config`."""
    return config.stash[SESSION]

