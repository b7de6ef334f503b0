"""A syrupy extension that pins measured values as readable JSON, compared within a tolerance."""
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


def compare(pinned: Any, measured: Any, tolerance: Tolerance, path: str = "",
            strict_keys: bool = True) -> list[str]:
    """Paths at which `measured` leaves `pinned` by more than `tolerance` (numbers only)."""
    if isinstance(pinned, dict) and isinstance(measured, dict):
        missing = pinned.keys() - measured.keys()
        extra = measured.keys() - pinned.keys() if strict_keys else set()
        if missing or extra:
            return [f"{path or '.'}: pinned keys {sorted(pinned)}, measured {sorted(measured)}"]
        return [d for k in pinned
                for d in compare(pinned[k], measured[k], tolerance, f"{path}.{k}", strict_keys)]
    if isinstance(pinned, list) and isinstance(measured, list):
        if len(pinned) != len(measured):
            return [f"{path}: length {len(pinned)} != {len(measured)}"]
        return [d for i, (p, m) in enumerate(zip(pinned, measured))
                for d in compare(p, m, tolerance, f"{path}[{i}]", strict_keys)]
    numbers = (int, float)
    if (isinstance(pinned, numbers) and isinstance(measured, numbers)
            and not isinstance(pinned, bool) and not isinstance(measured, bool)):
        both_nan = isinstance(pinned, float) and isinstance(measured, float) \
            and math.isnan(pinned) and math.isnan(measured)
        if both_nan or tolerance.allows(pinned, measured):
            return []
        return [f"{path}: pinned {pinned}, measured {measured}"]
    return [] if pinned == measured else [f"{path}: pinned {pinned!r}, measured {measured!r}"]


def snapshot_payload(spec: ClaimSpec, profile: str, measured: dict[str, Any]) -> dict[str, Any]:
    """What a snapshot file holds: the id, the profile, a provenance line and the measured values."""
    return {"id": spec.id, "profile": profile,
            "provenance": MEASURED_PROVENANCE.format(profile=profile), "measured": plain(measured)}


def snapshot_path(root: Path, profile: str, spec: ClaimSpec, test_name: str) -> Path:
    """snapshots/<profile>/<source>/<test name>.json"""
    return root / "snapshots" / profile / spec.source_name / f"{test_name}.json"


def extension_for(root: Path, profile: str, spec: ClaimSpec, tolerance: Tolerance,
                  log: ComparisonLog) -> type[JSONSnapshotExtension]:
    """An extension class bound to one test's profile, source, tolerance and log."""
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
            # A snapshot transcribed from a notebook pins only what it printed; a measured one
            # pins every key.
            strict = pinned.get("provenance", "").startswith("measured")
            diffs = compare(pinned.get("measured"), fresh["measured"], tolerance, strict_keys=strict)
            log.differences = diffs
            if diffs:
                log.comparison = Comparison.OUTSIDE
            elif not compare(pinned.get("measured"), fresh["measured"], Tolerance(), strict_keys=strict):
                log.comparison = Comparison.EXACT
            else:
                log.comparison = Comparison.WITHIN
            return not diffs

    return ClaimSnapshot
