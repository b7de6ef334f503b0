"""What changed since the previous complete run of the same profile, mode and selection: verdicts,
drift with the environment that moved, and new skips (the top of the report)."""
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
    like: str = ""  # what the previous run shares with this one: profile, mode, selection
    verdicts: list[dict[str, str]] = field(default_factory=list)
    drifted: list[dict[str, Any]] = field(default_factory=list)
    environment: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    new_skips: list[dict[str, str]] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.verdicts or self.drifted or self.environment or self.new_skips)


LIKE = ("profile", "mode", "selection")  # what a run is compared on: like with like


def alike(a: RunRecord, b: RunRecord) -> bool:
    """Two runs of the same profile, mode and selection (a record too old to state its
    selection matches any; faithful is the mode of a record that states none)."""
    ea, eb = a.environment, b.environment
    return (ea.get("profile") == eb.get("profile")
            and (ea.get("mode") or "faithful") == (eb.get("mode") or "faithful")
            and (ea.get("selection") is None or eb.get("selection") is None
                 or ea["selection"] == eb["selection"]))


def describe_like(record: RunRecord) -> str:
    """"tiny profile, fast mode, -m 'not slow' -k 'x' claims": what a comparison holds equal."""
    env = record.environment
    chosen = env.get("selection") or {}
    picked = " ".join([*([f"-m '{chosen['markers']}'"] if chosen.get("markers") else []),
                       *([f"-k '{chosen['keywords']}'"] if chosen.get("keywords") else []),
                       *chosen.get("paths", [])])
    return (f"{env.get('profile')} profile, {env.get('mode') or 'faithful'} mode"
            + (f", selection {picked}" if picked else ""))


def previous_complete(current: RunRecord, hist: History) -> tuple[str, RunRecord] | None:
    """The latest complete run in `hist` of the same profile, mode and selection as `current`,
    other than `current` itself (its archived copy)."""
    earlier = [(name, run) for name, run in hist.runs
               if not run.run.partial and run.started != current.started and alike(run, current)]
    return earlier[-1] if earlier else None


def what_changed(current: RunRecord, hist: History) -> Changes:
    """Verdicts changed, claims drifted and tests newly skipped since the previous complete run."""
    drifted = [{"id": e.id, "detail": e.drift_detail[:3]}
               for e in current.tests if e.drift is Drift.DRIFTED]
    found = previous_complete(current, hist)
    if found is None:
        return Changes(previous=None, like=describe_like(current), drifted=drifted)
    name, before = found
    diff = diff_runs(before, current)
    return Changes(previous=name, like=describe_like(current), drifted=drifted,
                   environment=diff.environment,
                   verdicts=[{"id": c.id, "before": c.before, "after": c.after}
                             for c in diff.verdicts],
                   new_skips=[{"id": e.id, "message": e.message} for e in diff.new_skips])
