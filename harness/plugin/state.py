"""What the plugin's parts share: stash keys and one test's state."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from harness import record as run_record
from harness.backends import Backend
from harness.claims import ClaimSpec
from harness.profiles import Mode, Profile
from harness.snapshots import ComparisonLog
from harness.verdicts import Drift, Failure

SPEC = pytest.StashKey[ClaimSpec]()
STATE = pytest.StashKey["TestState"]()
PROFILE = pytest.StashKey[Profile]()
MODE = pytest.StashKey[Mode]()
BACKEND = pytest.StashKey[Backend]()
BACKEND_REASONS = pytest.StashKey[dict[str, str | None]]()  # --backend=ndif: per source
RETARGET_REASONS = pytest.StashKey[dict[str, str]]()  # --model: sources it could not re-target
ANCHORS = pytest.StashKey[dict[str, tuple[str, str]]]()
DESELECTED = pytest.StashKey[list[pytest.Item]]()
RECORD = pytest.StashKey[run_record.RunRecord]()
AUDIT = pytest.StashKey[list[str]]()  # --device-audit's findings in one test
MODELS = pytest.StashKey[dict[str, dict[str, Any]]]()  # each loaded source's provenance
RECORD_PROPERTY = "interp_claims"


@dataclass
class TestState:
    """What one claim test produced: phases, measured values, criterion, snapshot and drift."""

    outcome: str = "passed"
    message: str = ""
    failure: Failure = Failure.CRITERION
    duration: float = 0.0
    measured: dict[str, Any] | None = None
    criterion_check: dict[str, Any] | None = None
    holds_check: dict[str, Any] | None = None  # an anchor's Holds
    known_answer: dict[str, Any] | None = None  # an organism's planted value, recovered or missed
    snapshot: ComparisonLog = field(default_factory=ComparisonLog)
    drift: Drift | None = None
    tolerance: dict[str, Any] | None = None
