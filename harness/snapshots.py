"""A syrupy extension that pins measured values as readable JSON; floats compare within a tolerance."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from harness.claims import ClaimSpec, Tolerance
from harness.values import plain
from harness.verdicts import UnreadableFile


class Comparison(StrEnum):
    EXACT = "exact"
    WITHIN = "within tolerance"
    OUTSIDE = "outside"
    NEW = "new"


MEASURED_PROVENANCE = "measured by interp-claims on the {profile} profile"


@dataclass
class ComparisonLog:
    """Where the extension writes how the last comparison came out."""

    comparison: Comparison | None = None
    differences: list[str] = field(default_factory=list)


def compare(pinned: Any, measured: Any, floats: Tolerance, path: str = "") -> list[str]:
    """Paths at which `measured` differs from `pinned`: counts, token ids, booleans, strings and
    keys exactly; a float (either side) by more than `floats`."""
    if isinstance(pinned, dict) and isinstance(measured, dict):
        if pinned.keys() != measured.keys():
            return [f"{path or '.'}: pinned keys {sorted(pinned)}, measured {sorted(measured)}"]
        return [d for k in pinned for d in compare(pinned[k], measured[k], floats, f"{path}.{k}")]
    if isinstance(pinned, list) and isinstance(measured, list):
        if len(pinned) != len(measured):
            return [f"{path}: length {len(pinned)} != {len(measured)}"]
        return [d for i, (p, m) in enumerate(zip(pinned, measured))
                for d in compare(p, m, floats, f"{path}[{i}]")]
    if _is_float(pinned, measured):
        both_nan = math.isnan(pinned) and math.isnan(measured)
        if both_nan or floats.allows(pinned, measured):
            return []
        return [f"{path}: pinned {pinned}, measured {measured}"]
    same = pinned == measured and type(pinned) is type(measured)
    return [] if same else [f"{path}: pinned {pinned!r}, measured {measured!r}"]


def _is_float(pinned: Any, measured: Any) -> bool:
    """Two numbers, neither a boolean, at least one a float."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (pinned, measured))
    return numbers and (isinstance(pinned, float) or isinstance(measured, float))


def read_snapshot(path: Path) -> dict[str, Any]:
    """A pinned snapshot's content, or UnreadableFile naming the file and the fix."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableFile(f"snapshot {path} cannot be read ({type(exc).__name__}: {exc}); "
                             "restore it from git or re-pin it with --snapshot-update") from exc
    if not isinstance(data, dict) or "measured" not in data:
        raise UnreadableFile(f"snapshot {path} holds no 'measured' values; restore it from git or "
                             "re-pin it with --snapshot-update")
    return data


def snapshot_payload(spec: ClaimSpec, profile: str, measured: dict[str, Any]) -> dict[str, Any]:
    """What a snapshot file holds: the id, the profile, a provenance line and the measured values."""
    return {"id": spec.id, "profile": profile,
            "provenance": MEASURED_PROVENANCE.format(profile=profile), "measured": plain(measured)}


def snapshot_path(root: Path, profile: str, spec: ClaimSpec, test_name: str) -> Path:
    """snapshots/<profile>/<source>/<test name>.json"""
    return root / "snapshots" / profile / spec.source_name / f"{test_name}.json"


def extension_for(root: Path, profile: str, spec: ClaimSpec, floats: Tolerance,
                  log: ComparisonLog) -> type[JSONSnapshotExtension]:
    """An extension class bound to one test's profile, source, float tolerance and log."""
    directory = root / "snapshots" / profile / spec.source_name

    class ClaimSnapshot(JSONSnapshotExtension):
        @classmethod
        def dirname(cls, *, test_location: PyTestLocation) -> str:
            return str(directory)

        @classmethod
        def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
            return str(directory)

        def serialize(self, data, **kwargs) -> str:
            return json.dumps(data, indent=2, sort_keys=False) + "\n"

        def matches(self, *, serialized_data, snapshot_data) -> bool:
            fresh, pinned = json.loads(serialized_data), json.loads(snapshot_data)
            diffs = compare(pinned.get("measured"), fresh["measured"], floats)
            log.differences = diffs
            if diffs:
                log.comparison = Comparison.OUTSIDE
            elif not compare(pinned.get("measured"), fresh["measured"], Tolerance()):
                log.comparison = Comparison.EXACT
            else:
                log.comparison = Comparison.WITHIN
            return not diffs

    return ClaimSnapshot
