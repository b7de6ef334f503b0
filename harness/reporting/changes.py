"""What changed since the previous complete run: verdicts, drift with the environment that moved,
and new skips (the top of the report)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.reporting.history import History
from harness.reporting.record import RunRecord
from harness.reporting.run_diff import diff_runs
from harness.verdicts import Drift


@dataclass(frozen=True)
class Changes:
    """The differences between this run and `previous` (a history run name; None if there is
    no earlier complete run)."""

    previous: str | None
    verdicts: list[dict[str, str]] = field(default_factory=list)
    drifted: list[dict[str, Any]] = field(default_factory=list)
    environment: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    new_skips: list[dict[str, str]] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.verdicts or self.drifted or self.environment or self.new_skips)


def previous_complete(current: RunRecord, hist: History) -> tuple[str, RunRecord] | None:
    """The latest complete run in `hist` other than `current` itself (its archived copy)."""
    earlier = [(name, run) for name, run in hist.runs
               if not run.run.partial and run.started != current.started]
    return earlier[-1] if earlier else None


def what_changed(current: RunRecord, hist: History) -> Changes:
    """Verdicts changed, claims drifted and tests newly skipped since the previous complete run."""
    drifted = [{"id": e.id, "detail": e.drift_detail[:3]}
               for e in current.tests if e.drift is Drift.DRIFTED]
    found = previous_complete(current, hist)
    if found is None:
        return Changes(previous=None, drifted=drifted)
    name, before = found
    diff = diff_runs(before, current)
    return Changes(previous=name, drifted=drifted, environment=diff.environment,
                   verdicts=[{"id": c.id, "before": c.before, "after": c.after}
                             for c in diff.verdicts],
                   new_skips=[{"id": e.id, "message": e.message} for e in diff.new_skips])
