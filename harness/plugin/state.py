"""What the plugin's parts share: one session object in one stash key (syrupy's
SnapshotSession), and one test's spec, state and device-audit findings in its item's stash."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
class ClaimsSession:
    """One pytest session's state: its profile, mode and backend, what blocking and judging learn
    as tests run, and, on the controller, the run record, which each test's entry joins as it
    finishes (`add_entry`)."""

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

    def anchor_ended(self, anchor_id: str, outcome: str, message: str) -> None:
        """What an anchor's phase left, for the tests that require it: its outcome and the first
        line of its message (the outcome where it has none)."""
        self.anchors[anchor_id] = (outcome, message.splitlines()[0] if message else outcome)

    def anchor_outcome(self, anchor_id: str) -> tuple[str, str]:
        """An anchor's outcome and message in this session ("absent" where it did not run)."""
        return self.anchors.get(anchor_id, ("absent", "the anchor was not run in this session"))

    def add_entry(self, report: pytest.TestReport, entry: run_record.Entry) -> None:
        """A finished test's entry: into the record as it is on the controller; from an xdist
        worker (which keeps none), as plain JSON in its report, the one crossing."""
        model = self.models.get(entry.source)
        if self.record is None:
            report.user_properties.append((RECORD_PROPERTY, run_record.crossing(entry, model)))
        else:
            self.record.add_entry(entry, model)


SESSION = pytest.StashKey[ClaimsSession]()
SPEC = pytest.StashKey[ClaimSpec]()
JUDGED = pytest.StashKey[type]()  # the TypedDict a claim's readout returns (readout_check.py)
STATE = pytest.StashKey["TestState"]()
AUDIT = pytest.StashKey[list[str]]()  # --device-audit's findings in one test


def claims_session(config: pytest.Config) -> ClaimsSession:
    """The session object pytest_configure made for `config`."""
    return config.stash[SESSION]


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
