"""The verdicts a claim test can end with."""
from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    REPLICATED = "replicated"
    NOT_REPLICATED = "not replicated"
    BLOCKED = "blocked"
    NOT_APPLICABLE = "not applicable"
    SKIPPED = "skipped"
    ERROR = "error"


BLOCKED_PREFIX = "blocked by "


class NotReplicated(AssertionError):
    """A measured value fell outside the published value's criterion."""


class SnapshotDrift(AssertionError):
    """A measured value moved outside its pinned snapshot's tolerance."""


def verdict_for(outcome: str, *, skip_reason: str = "", published_profile: bool,
                failure_is_assertion: bool = True) -> Verdict:
    """Map a pytest outcome to a verdict; tiny-profile passes are never 'replicated'."""
    if outcome == "passed":
        return Verdict.REPLICATED if published_profile else Verdict.NOT_APPLICABLE
    if outcome == "skipped":
        return Verdict.BLOCKED if skip_reason.startswith(BLOCKED_PREFIX) else Verdict.SKIPPED
    if outcome == "failed" and failure_is_assertion:
        return Verdict.NOT_REPLICATED
    return Verdict.ERROR
