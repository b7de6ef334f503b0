"""Pinned work ledgers: each experiment step's counted model work (`harness.models.work`), per profile,
source and mode, in snapshots/<profile>/<source>/work-<mode>.json. The cost plan reads them; a
run compares its counts with them, as it compares measured values with their snapshots."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.models.work import Work

COUNTS = tuple(Work().as_record())


def ledger_path(root: Path, snapshot_name: str, source: str, mode: str) -> Path:
    return root / "snapshots" / snapshot_name / source / f"work-{mode}.json"


def read_ledger(path: Path) -> dict[str, Work]:
    """The pinned steps of one ledger ({} when none is pinned)."""
    if not path.exists():
        return {}
    steps = json.loads(path.read_text())["steps"]
    return {step: Work(**{k: counts.get(k, 0) for k in COUNTS}) for step, counts in steps.items()}


def write_ledger(path: Path, counted: dict[str, dict[str, Any]]) -> None:
    """Pin `counted` steps, keeping pinned steps this run did not count."""
    steps = {k: v.as_record() for k, v in read_ledger(path).items()}
    steps.update({step: {k: c[k] for k in COUNTS} for step, c in counted.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"what": "model work per experiment fixture, counted by a forward "
                                        "pre-hook (harness/models/work.py)",
                                "steps": dict(sorted(steps.items()))}, indent=2) + "\n")


def differences(pinned: dict[str, Work], counted: dict[str, dict[str, Any]]) -> list[str]:
    """Each counted step whose counts are not its pinned ones (or that has no pin)."""
    found = []
    for step, c in sorted(counted.items()):
        if step not in pinned:
            found.append(f"{step}: no pinned work")
            continue
        moved = [f"{k} {getattr(pinned[step], k)} -> {c[k]}" for k in COUNTS
                 if getattr(pinned[step], k) != c[k]]
        if moved:
            found.append(f"{step}: " + ", ".join(moved))
    return found
