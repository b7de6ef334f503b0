"""What changed since the previous complete run: verdicts, drift with the environment that moved,
and new skips (the top of the report)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.history import History, is_partial

# Environment fields that say nothing about what produced the numbers.
NOT_COMPARED = ("started", "duration_s", "models")


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


def previous_complete(current: dict[str, Any], hist: History) -> tuple[str, dict[str, Any]] | None:
    """The latest complete run in `hist` other than `current` itself (its archived copy)."""
    started = current["environment"]["started"]
    earlier = [(name, data) for name, data in hist.runs
               if not is_partial(data) and data["environment"].get("started") != started]
    return earlier[-1] if earlier else None


def environment_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Each environment field (versions, device, commit, lock) whose value differs."""
    keys = sorted((set(before) | set(after)) - set(NOT_COMPARED))
    return {k: (before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k)}


def what_changed(current: dict[str, Any], hist: History) -> Changes:
    """Verdicts changed, claims drifted and tests newly skipped since the previous complete run."""
    drifted = [{"id": e["id"], "detail": e.get("drift_detail", [])[:3]}
               for e in current["tests"] if e.get("drift") == "drifted"]
    found = previous_complete(current, hist)
    if found is None:
        return Changes(previous=None, drifted=drifted)
    name, before = found
    was = {e["id"]: e["verdict"] for e in before["tests"]}
    verdicts = [{"id": e["id"], "before": was[e["id"]], "after": e["verdict"]}
                for e in current["tests"] if e["id"] in was and was[e["id"]] != e["verdict"]]
    new_skips = [{"id": e["id"], "message": e.get("message", "")} for e in current["tests"]
                 if e["verdict"] == "skipped" and was.get(e["id"]) != "skipped"]
    return Changes(previous=name, verdicts=verdicts, drifted=drifted,
                   environment=environment_diff(before["environment"], current["environment"]),
                   new_skips=new_skips)
