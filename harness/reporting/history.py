"""Run history: every run's record is written to reports/history/<UTC timestamp>.json."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.reporting.record import SCHEMA_VERSION, RunRecord
from harness.verdicts import Drift

STAMP = "%Y%m%dT%H%M%SZ"
READABLE_SCHEMAS = (1, 2, SCHEMA_VERSION)  # schema 1 records no run block: those runs completed


@dataclass
class History:
    """The readable past runs, oldest first, and a warning for every file that was skipped."""

    runs: list[tuple[str, RunRecord]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def verdicts(self, claim_id: str) -> list[tuple[str, str | None, Any, bool]]:
        """(run, verdict or None if absent, measured, partial) for every run, oldest first."""
        out = []
        for name, record in self.runs:
            entry = record.entry(claim_id)
            out.append((name, entry and entry.verdict, entry and entry.measured,
                        record.run.partial))
        return out

    def since(self, claim_id: str, verdict: str) -> str | None:
        """The first run of the current streak of `verdict`, if the verdict changed in history;
        partial runs never count as a change."""
        streak_start = None
        changed = False
        for name, v, _, partial in self.verdicts(claim_id):
            if v is None or partial:
                continue
            if v != verdict:
                changed, streak_start = True, None
            elif streak_start is None:
                streak_start = name
        return streak_start if changed else None


    def drift_since(self, claim_id: str) -> str | None:
        """The first complete run of the current unbroken streak in which the claim drifted."""
        start = None
        for name, record in self.runs:
            entry = record.entry(claim_id)
            if record.run.partial or entry is None:
                continue
            start = (start or name) if entry.drift is Drift.DRIFTED else None
        return start


def archive(record: RunRecord, directory: Path) -> Path:
    """Write a run's record into the history directory, named by its UTC start time; a second run
    that started in the same second gets `<stamp>~2.json` (sorting after it), and so on. Names
    are taken under a lock and files created exclusively, so concurrent runs each keep theirs."""
    import datetime as dt

    from filelock import FileLock

    started = record.started or dt.datetime.now(dt.timezone.utc).isoformat()
    stamp = dt.datetime.fromisoformat(started).astimezone(dt.timezone.utc).strftime(STAMP)
    directory.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record.to_json(), indent=2) + "\n"
    with FileLock(directory / ".lock"):
        for n in range(1, 1000):
            target = directory / (f"{stamp}.json" if n == 1 else f"{stamp}~{n}.json")
            try:
                with target.open("x") as f:
                    f.write(text)
                return target
            except FileExistsError:
                continue
    raise FileExistsError(f"{directory}: 999 runs already started at {stamp}")


def _readable(data: Any) -> str | None:
    """Why a history document cannot be shown, or None when it can."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("schema") not in READABLE_SCHEMAS:
        return f"schema {data.get('schema')!r}, expected one of {READABLE_SCHEMAS}"
    tests = data.get("tests")
    if not isinstance(tests, list) or not all(isinstance(t, dict) and "id" in t and "verdict" in t
                                              for t in tests):
        return "no list of tests with ids and verdicts"
    return None


def load(directory: Path, limit: int = 30) -> History:
    """The last `limit` readable runs; corrupted or foreign files become warnings."""
    history = History()
    if not directory.is_dir():
        return history
    for path in sorted(directory.glob("*.json"))[-limit:]:
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            history.warnings.append(f"{path.name}: unreadable ({type(exc).__name__})")
            continue
        problem = _readable(data)
        if problem:
            history.warnings.append(f"{path.name}: skipped ({problem})")
            continue
        history.runs.append((path.stem, RunRecord.from_json(data)))
    return history
