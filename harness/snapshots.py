"""A syrupy extension that pins measured values as readable JSON; floats compare within a tolerance."""
from __future__ import annotations

import json
import math
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

from harness.values import plain
from harness.verdicts import Comparison, Drift, UnreadableFile


MEASURED_PROVENANCE = "measured by interp-claims on the {profile} profile"


@dataclass(frozen=True)
class Tolerance:
    """How far a re-measured float may move from its snapshot before it counts as drift."""

    abs: float = 0.0
    rel: float = 0.0

    def allows(self, pinned: float, measured: float) -> bool:
        """Whether `measured` lies within this tolerance of `pinned`; an infinity only of itself."""
        if math.isinf(pinned) or math.isinf(measured):
            return pinned == measured
        return abs(measured - pinned) <= self.abs + self.rel * abs(pinned)

    def as_record(self) -> dict[str, float]:
        return {"abs": self.abs, "rel": self.rel}


EXACT = Tolerance()

# The organisms' floats come from float32 kernels whose reduction order differs between ATen CPU
# capabilities (default, AVX2, AVX-512) and machines. float32's unit roundoff is 2**-24 (6e-8);
# the suite's floats are means, differences and intervals of logits and log-probabilities of
# magnitude up to about 16, where one roundoff is about 1e-6. Ten roundoffs at that magnitude bound
# the absolute part, and about 170 ulps (1e-5) the relative part. Measured across the three
# capabilities on the heads and patching families: at most 3e-7 absolute.
ORGANISM_FLOATS = Tolerance(abs=1e-5, rel=1e-5)
ORGANISM_FLOATS_REASON = "default for float32 organisms across CPU kernels"


@dataclass
class ComparisonLog:
    """Where the extension writes how the comparison of the pin at `path` came out."""

    path: Path
    comparison: Comparison | None = None
    differences: list[str] = field(default_factory=list)
    unreadable: str | None = None  # why the pin cannot be read


# A number written in a message (a catalogue's "study 0.0657525, reference -8.15943"): one with an
# exponent or more than two decimals is a computed float; shorter ones are read as ids (heads'
# "12.10", a layer "1.5") and compared as text.
WRITTEN_NUMBER = re.compile(r"(-?\d+\.\d+(?:e[-+]?\d+)?)")
ID_DECIMALS = 2


def _same_text(pinned: str, measured: str, floats: Tolerance) -> bool:
    """The same words, and each computed float written in them within `floats`."""
    ours, theirs = WRITTEN_NUMBER.split(pinned), WRITTEN_NUMBER.split(measured)
    if len(ours) != len(theirs):
        return False
    return all(a == b or (i % 2 == 1 and _computed(a) and _computed(b)
                          and floats.allows(float(a), float(b)))
               for i, (a, b) in enumerate(zip(ours, theirs)))


def _computed(number: str) -> bool:
    """A written number with more decimals than an id has (an exponent counts among them)."""
    return len(number.split(".")[1]) > ID_DECIMALS


def compare(pinned: Any, measured: Any, floats: Tolerance, path: str = "") -> list[str]:
    """Paths at which `measured` differs from `pinned`: counts, token ids, booleans, strings and
    keys exactly, apart from computed floats written in a string; a float (either side) by more
    than `floats`. NaN against NaN is no difference (the same undefined value, measured again);
    NaN against a number is one."""
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
    if isinstance(pinned, str) and isinstance(measured, str):
        same = _same_text(pinned, measured, floats)
    return [] if same else [f"{path}: pinned {pinned!r}, measured {measured!r}"]


def _is_float(pinned: Any, measured: Any) -> bool:
    """Two numbers, neither a boolean, at least one a float."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (pinned, measured))
    return numbers and (isinstance(pinned, float) or isinstance(measured, float))


def _unreadable(path: Path, exc: Exception) -> str:
    if isinstance(exc, UnreadableFile):
        return str(exc)
    return (f"snapshot {path} cannot be read ({type(exc).__name__}: {exc}); restore it from git "
            "or re-pin it with --snapshot-update")


def _pinned(data: Any, path: Path) -> Any:
    """A snapshot document's measured values, or UnreadableFile naming the file and the fix."""
    if not isinstance(data, dict) or "measured" not in data:
        raise UnreadableFile(f"snapshot {path} holds no 'measured' values; restore it from git or "
                             "re-pin it with --snapshot-update")
    return data["measured"]


def read_snapshot(path: Path) -> dict[str, Any]:
    """A pinned snapshot's content, or UnreadableFile naming the file and the fix."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableFile(_unreadable(path, exc)) from exc
    _pinned(data, path)
    return data


def snapshot_payload(claim_id: str, profile: str, measured: dict[str, Any]) -> dict[str, Any]:
    """What a snapshot file holds: the id, the profile, a provenance line and the measured values."""
    return {"id": claim_id, "profile": profile,
            "provenance": MEASURED_PROVENANCE.format(profile=profile), "measured": plain(measured)}


def snapshot_folder(root: Path, profile: str, source: str) -> Path:
    """snapshots/<profile>/<source>/: one source's snapshots on one profile."""
    return root / "snapshots" / profile / source


def snapshot_path(root: Path, profile: str, source: str, test_name: str) -> Path:
    """snapshots/<profile>/<source>/<test name>.json"""
    return snapshot_folder(root, profile, source) / f"{test_name}.json"


class ClaimSnapshot(JSONSnapshotExtension):
    """syrupy's JSON extension with each test's directory (snapshots/<profile>/<source>/) given by
    `check_snapshot`, and pinned values compared within that check's float tolerance."""

    directories: ClassVar[dict[str, Path]]  # test nodeid: its snapshot directory

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        """The test's directory; syrupy's own for a test that never compared (it stopped first)."""
        known = cls.directories.get(test_location.nodeid)
        return str(known) if known else super().dirname(test_location=test_location)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    def serialize(self, data, **kwargs) -> str:
        return json.dumps(data, indent=2, sort_keys=False) + "\n"

    def matches(self, *, serialized_data, snapshot_data) -> bool:
        floats, log = _CHECKING.get()
        try:
            pinned = _pinned(json.loads(snapshot_data), log.path)
        except (UnicodeDecodeError, json.JSONDecodeError, UnreadableFile) as exc:
            log.unreadable = _unreadable(log.path, exc)
            return False
        fresh = json.loads(serialized_data)["measured"]
        log.differences = compare(pinned, fresh, floats)
        if log.differences:
            log.comparison = Comparison.OUTSIDE
        elif compare(pinned, fresh, Tolerance()):
            log.comparison = Comparison.WITHIN
        else:
            log.comparison = Comparison.EXACT
        return not log.differences


def session_extension() -> type[ClaimSnapshot]:
    """The snapshot extension of one pytest session, with a directory map of its own."""
    return type("SessionClaimSnapshot", (ClaimSnapshot,), {"directories": {}})


@dataclass(frozen=True)
class SnapshotCheck:
    """How one test's measured values compared with their pin, as the run record states it, and
    why the test fails on it (None: it does not)."""

    comparison: Comparison | None = None
    drift: Drift | None = None
    differences: tuple[str, ...] = ()
    failure: str | None = None


_CHECKING: ContextVar[tuple[Tolerance, ComparisonLog]] = ContextVar("interp_claims_snapshot")


def check_snapshot(assertion: Any, extension: type[ClaimSnapshot], nodeid: str, path: Path,
                   payload: dict[str, Any], floats: Tolerance, *, updating: bool,
                   required: bool) -> SnapshotCheck:
    """The one snapshot check (pytest-regressions' perform_regression_check): compare `payload`
    with the pin at `path` through syrupy's `assertion`, reading the file once, floats within
    `floats`; a missing pin fails where pins are `required`, an unreadable one is an error naming
    the file, and --snapshot-update (`updating`) pins anew."""
    extension.directories[nodeid] = path.parent
    existed = path.exists()
    if not existed and not updating:
        return SnapshotCheck(Comparison.NEW, Drift.UNPINNED, failure=(
            f"no pinned snapshot at {path}; pin it with --snapshot-update" if required else None))
    log = ComparisonLog(path=path)
    token = _CHECKING.set((floats, log))
    try:
        matched = assertion.use_extension(extension) == payload
    finally:
        _CHECKING.reset(token)
    if log.unreadable and not updating:
        raise UnreadableFile(log.unreadable)
    if not existed or log.unreadable:
        return SnapshotCheck(Comparison.NEW, Drift.UNPINNED)  # written by --snapshot-update now
    moved = log.comparison is Comparison.OUTSIDE
    return SnapshotCheck(log.comparison, Drift.DRIFTED if moved else Drift.NONE,
                         tuple(log.differences), failure=None if matched else (
                             f"drifted from its snapshot {path}: " + "; ".join(log.differences[:5])))
