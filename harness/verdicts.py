"""The verdicts a claim test can end with, and drift, the separate fact of a moved number."""
from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    REPLICATED = "replicated"
    INCONCLUSIVE = "inconclusive"  # passed, but its criterion accepts the declared null too
    NOT_REPLICATED = "not replicated"
    ANCHOR_FAILED = "anchor failed"  # the machinery broke: never a fact about the finding
    HELD = "held"  # an anchor's checks held where published values do not apply (organisms)
    RECOVERED = "recovered"  # a study recovered what an organism's construction planted
    KNOWN_ANSWER_MISSED = "missed"  # a study missed what an organism planted
    BLOCKED = "blocked"
    NOT_APPLICABLE = "not applicable"
    SKIPPED = "skipped"
    ERROR = "error"

    @property
    def ran(self) -> bool:
        """The test ran to a verdict on the finding or on its machinery."""
        return self in _RAN

    @property
    def fails(self) -> bool:
        """The test fails with it: a finding not replicated, broken machinery, a crash."""
        return self in _FAILS

    @property
    def explained(self) -> bool:
        """Its message says why (the terminal shows it)."""
        return self in _FAILS or self in (Verdict.BLOCKED, Verdict.SKIPPED, Verdict.INCONCLUSIVE)


_RAN = frozenset({Verdict.REPLICATED, Verdict.INCONCLUSIVE, Verdict.NOT_REPLICATED, Verdict.ANCHOR_FAILED,
                  Verdict.HELD, Verdict.RECOVERED, Verdict.KNOWN_ANSWER_MISSED,
                  Verdict.NOT_APPLICABLE})
_FAILS = frozenset({Verdict.NOT_REPLICATED, Verdict.ANCHOR_FAILED, Verdict.KNOWN_ANSWER_MISSED,
                    Verdict.ERROR})


class Drift(StrEnum):
    """Whether the measured values moved since they were pinned (never part of the verdict)."""

    NONE = "no drift"
    DRIFTED = "drifted"
    UNPINNED = "unpinned"


class Comparison(StrEnum):
    """How measured values compared with their snapshot."""

    EXACT = "exact"
    WITHIN = "within tolerance"
    OUTSIDE = "outside"
    NEW = "new"


BLOCKED_PREFIX = "blocked by "


class Judged(AssertionError):
    """What a claim's judge raises to mark its test failed, with why in words; which failure it
    is (criterion, known answer or drift) the judge has already written on the test's state."""


class UnreadableFile(Exception):
    """A snapshot, manifest or history file that cannot be read: an error, never a verdict."""


class Failure(StrEnum):
    """Why a test failed: its criterion (or an anchor's holds), drift only, or a crash."""

    CRITERION = "criterion"
    DRIFT = "drift"
    KNOWN_ANSWER = "known answer"  # an organism's planted mechanism was missed
    CRASH = "crash"


def verdict_for(outcome: str, *, skip_reason: str = "", published_profile: bool,
                failure: Failure = Failure.CRITERION, anchor: bool = False,
                recovered: bool = False, accepts_null: bool = False) -> Verdict:
    """Map a pytest outcome to a verdict; tiny-profile passes are never 'replicated' (an anchor
    there 'held', a study whose known answer was `recovered` 'recovered'), a failure by drift
    alone keeps the verdict its criterion gave (drift is a fact of its own), a missed known
    answer is its own verdict (the study failed to find what the organism planted), and an
    anchor that fails its check says its machinery failed, on every profile (seed 000 §6); a
    finding whose criterion `accepts_null` as well is inconclusive, never replicated (issue 47)."""
    if outcome == "skipped":
        return Verdict.BLOCKED if skip_reason.startswith(BLOCKED_PREFIX) else Verdict.SKIPPED
    if outcome == "failed" and failure is Failure.KNOWN_ANSWER:
        return Verdict.KNOWN_ANSWER_MISSED
    if outcome == "passed" or (outcome == "failed" and failure is Failure.DRIFT):
        if published_profile:
            return Verdict.INCONCLUSIVE if accepts_null and not anchor else Verdict.REPLICATED
        return Verdict.HELD if anchor else Verdict.RECOVERED if recovered else \
            Verdict.NOT_APPLICABLE
    if outcome == "failed" and failure is Failure.CRITERION:
        return Verdict.ANCHOR_FAILED if anchor else Verdict.NOT_REPLICATED
    return Verdict.ERROR
