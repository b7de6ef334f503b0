"""Every claim's declaration with its pinned snapshot, shaped as run-record entries."""
from __future__ import annotations

import importlib
import json
from typing import Any, Callable

from harness.claims import ClaimSpec, spec_of
from tests.paths import ROOT
from tests.sample_results import entry


def declared_tests() -> list[tuple[str, Callable[..., Any], ClaimSpec]]:
    """(test name, test function, spec) for every claim test under claims/."""
    found = []
    for path in sorted((ROOT / "claims").glob("*/test_*.py")):
        module = importlib.import_module(f"claims.{path.parent.name}.{path.stem}")
        found += [(name, fn, spec_of(fn)) for name, fn in vars(module).items()
                  if name.startswith("test_") and spec_of(fn)]
    return found


def declared() -> list[tuple[str, ClaimSpec]]:
    """(test name, spec) for every claim test under claims/."""
    return [(name, spec) for name, _, spec in declared_tests()]


def pinned_measured(name: str, spec: ClaimSpec, profile: str = "tiny") -> Any:
    pin = ROOT / "snapshots" / profile / spec.source_name / f"{name}.json"
    return json.loads(pin.read_text())["measured"] if pin.exists() else None


def pinned_entries(profile: str = "tiny") -> list[dict[str, Any]]:
    """One run-record entry per claim: its pinned values, headline rendered, verdict by kind."""
    entries = []
    for name, spec in declared():
        measured = pinned_measured(name, spec, profile)
        e = entry(spec.id, spec.kind.value, "not applicable" if measured else "skipped",
                  measured=measured, published=dict(spec.published))
        e["headline"] = {"text": spec.headline, "measured": spec.headline_of(measured),
                         "published": spec.headline_of(spec.published)}
        entries.append(e)
    return entries
