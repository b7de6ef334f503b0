"""Every claim declares its headline, and the headline reads its pinned tiny values in full."""
from __future__ import annotations

import importlib
import json

import pytest

from harness.claims import spec_of
from tests.paths import ROOT


def declared() -> list[tuple[str, object]]:
    """(test name, spec) for every claim test under claims/."""
    found = []
    for path in sorted((ROOT / "claims").glob("*/test_*.py")):
        module = importlib.import_module(f"claims.{path.parent.name}.{path.stem}")
        found += [(name, spec_of(fn)) for name, fn in vars(module).items()
                  if name.startswith("test_") and spec_of(fn)]
    return found


CLAIMS = declared()


@pytest.mark.parametrize("name,spec", CLAIMS, ids=[s.id for _, s in CLAIMS])
def test_the_claim_declares_a_headline_that_reads_its_pinned_values(name, spec):
    assert spec.headline, f"{spec.id} declares no headline"
    pin = ROOT / "snapshots" / "tiny" / spec.source_name / f"{name}.json"
    if not pin.exists():
        pytest.skip(f"{spec.id} has no tiny snapshot (its test skips on the organism)")
    text = spec.headline_of(json.loads(pin.read_text())["measured"])
    assert text and "—" not in text, f"{spec.id}: {spec.headline!r} → {text!r}"
