"""One diff of two run records, for the page's "what changed" and for the upgrade canary: the
verdicts that changed, the tests only one run has, the environment fields that differ, the tests
newly skipped, and (given float tolerances) the measured values that moved outside them."""
from __future__ import annotations

import dataclasses
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


# An entry's fields that say when, where and how fast it ran, not what it found.
RUN_ONLY = ("duration", "worker", "gpu", "peak_gpu_bytes")


def differences_beyond_timing(before: RunRecord, after: RunRecord) -> list[str]:
    """Every difference between two records of the same tests other than when, where and how
    fast they ran: verdicts, measured values (exactly), any other field of an entry, and the
    environment (its commit aside). A refactor's proof that behaviour stayed the same."""
    diff = diff_runs(before, after, floats=lambda e: Tolerance())
    out = [f"{c.id}: verdict {c.before} -> {c.after}" for c in diff.verdicts]
    out += [f"{m.id}: {'; '.join(m.differences[:3])}" for m in diff.moved]
    out += [f"only before: {i}" for i in diff.only_before]
    out += [f"only after: {i}" for i in diff.only_after]
    out += [f"environment {k}: {a!r} -> {b!r}" for k, (a, b) in diff.environment.items()
            if k != "commit"]
    was = {e.id: e.to_json() for e in before.tests}
    for e in after.tests:
        if e.id in was:
            now = e.to_json()
            out += [f"{e.id}: {k} differs" for k in now
                    if k not in (*RUN_ONLY, "measured", "verdict") and now[k] != was[e.id][k]]
    return out


def only_source(record: RunRecord, source: str) -> RunRecord:
    """`record` with only `source`'s tests (its counts recomputed from them)."""
    return dataclasses.replace(record, tests=tuple(e for e in record.tests if e.source == source))


def main() -> int:
    """interp-claims diff BEFORE.json AFTER.json [--source NAME]: exit 1 on any difference."""
    import argparse
    from pathlib import Path

    from harness.reporting.record import read_record

    parser = argparse.ArgumentParser(prog="interp-claims diff", description=(
        "Every difference between two run records other than when, where and how fast they ran "
        "(a refactor's proof that behaviour stayed the same); exit 1 on any."))
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--source", help="compare only this source's tests")
    args = parser.parse_args()
    before, after = read_record(args.before), read_record(args.after)
    if args.source:
        before, after = only_source(before, args.source), only_source(after, args.source)
    found = differences_beyond_timing(before, after)
    print("\n".join(found) or f"{len(after.tests)} tests: only when, where and how fast they ran "
                               "differs")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
