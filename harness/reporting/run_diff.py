"""One diff of two run records, for the page's "what changed" and for the upgrade canary: the
verdicts that changed, the tests only one run has, the environment fields that differ, the tests
newly skipped, and (given float tolerances) the measured values that moved outside them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from harness.snapshots import Tolerance
from harness.reporting.record import Entry, RunRecord
from harness.snapshots import compare
from harness.verdicts import Verdict

# Environment fields that say nothing about what produced the numbers.
NOT_COMPARED = ("started", "duration_s", "models")


@dataclass(frozen=True)
class VerdictChange:
    id: str
    before: Verdict
    after: Verdict
    message: str  # the later run's


@dataclass(frozen=True)
class MovedValues:
    """A test's measured values that moved between the runs by more than `tolerance`."""

    id: str
    differences: tuple[str, ...]
    tolerance: Tolerance | None  # None: measured in one run only


@dataclass(frozen=True)
class RunDiff:
    verdicts: tuple[VerdictChange, ...]
    only_before: tuple[str, ...]
    only_after: tuple[str, ...]
    environment: dict[str, tuple[Any, Any]]
    new_skips: tuple[Entry, ...]
    moved: tuple[MovedValues, ...] = ()


def environment_diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Each environment field (versions, device, commit, lock) whose value differs."""
    keys = sorted((set(before) | set(after)) - set(NOT_COMPARED))
    return {k: (before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k)}


def recorded_floats(entry: Entry, default: Tolerance) -> Tolerance:
    """The float tolerance the entry's run compared its values within, else `default`."""
    recorded = (entry.tolerance or {}).get("floats")
    if recorded:
        return Tolerance(abs=recorded.get("abs", 0.0), rel=recorded.get("rel", 0.0))
    return default


def _moved(a: Entry, b: Entry, floats: Tolerance, names: tuple[str, str]) -> MovedValues | None:
    if a.measured is not None and b.measured is not None:
        differences = compare(a.measured, b.measured, floats)
        return MovedValues(a.id, tuple(differences), floats) if differences else None
    if (a.measured is None) != (b.measured is None):
        side = names[0] if b.measured is None else names[1]
        return MovedValues(a.id, (f"measured only in the {side} run",), None)
    return None


def diff_runs(before: RunRecord, after: RunRecord,
              floats: Callable[[Entry], Tolerance] | None = None,
              names: tuple[str, str] = ("earlier", "later")) -> RunDiff:
    """What differs from `before` to `after`; with `floats` (a tolerance for each of `before`'s
    entries), also the measured values that moved outside it (`names` name the two runs)."""
    was = {e.id: e for e in before.tests}
    now = {e.id: e for e in after.tests}
    both = sorted(was.keys() & now.keys())
    verdicts = tuple(VerdictChange(i, was[i].verdict, now[i].verdict, now[i].message)
                     for i in both if was[i].verdict != now[i].verdict)
    new_skips = tuple(e for e in after.tests
                      if e.verdict is Verdict.SKIPPED and (e.id not in was
                                                          or was[e.id].verdict is not Verdict.SKIPPED))
    moved = () if floats is None else tuple(
        m for i in both if (m := _moved(was[i], now[i], floats(was[i]), names)) is not None)
    return RunDiff(verdicts, tuple(sorted(was.keys() - now.keys())),
                   tuple(sorted(now.keys() - was.keys())),
                   environment_diff(dict(before.environment), dict(after.environment)),
                   new_skips, moved)
