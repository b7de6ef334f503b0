"""The order in which a catalogued breakage tries the checks (issues 49, 50): first the check that
caught it in the source's pinned catalogue record, so an unchanged catch costs one check; then a
breakage of a study's arithmetic or a readout tries the reference anchors (the checks written
for it), any other the declared order."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from harness.breakage_edit import Breakage, Part

if TYPE_CHECKING:
    from harness.anchor_checks import Checks


def pinned_catches(folder: Path, claim_id: str) -> dict[str, str]:
    """Breakage name -> the check that caught it, from the snapshot in `folder` that pins
    `claim_id`'s catalogue record ({} where none is pinned or its file cannot be read: the snapshot
    check reports that file itself)."""
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(data, dict) and data.get("id") == claim_id:
            outcomes = (data.get("measured") or {}).get("outcomes") or {}
            return {name: o["check"] for name, o in outcomes.items()
                    if isinstance(o, dict) and o.get("outcome") == "caught" and o.get("check")}
    return {}


def in_order(b: Breakage, checks: Checks, first: Mapping[str, str] | None = None,
             ) -> list[tuple[str, Callable[[], list[str]]]]:
    """`checks` in the order breakage `b` tries them: `first[b.name]` (the pinned catch) ahead of
    the rest; then, for a study or readout breakage, the reference anchors; the declared order."""
    items = list(checks.items())
    if b.part in (Part.STUDY, Part.READOUT):
        items.sort(key=lambda item: "-reference" not in item[0])
    pinned = (first or {}).get(b.name)
    items.sort(key=lambda item: item[0] != pinned)
    return items
