"""Every report figure draws from the values its claim pins, as inline SVG."""
from __future__ import annotations

import json

import pytest

from harness.claims import spec_of
from harness.figures import figure_for
from harness.sources import registered
from tests.paths import ROOT


def pinned_run(profile: str) -> dict[str, dict]:
    """Each claim's declaration and its pinned snapshot, shaped as run-record entries."""
    import importlib

    run = {}
    for module_path in sorted((ROOT / "claims").glob("*/test_*.py")):
        module = importlib.import_module(f"claims.{module_path.parent.name}.{module_path.stem}")
        for name, fn in vars(module).items():
            spec = spec_of(fn)
            if spec and name.startswith("test_"):
                snap = ROOT / "snapshots" / profile / spec.source_name / f"{name}.json"
                measured = json.loads(snap.read_text())["measured"] if snap.exists() else None
                run[spec.id] = {"id": spec.id, "published": dict(spec.published), "measured": measured}
    return run


RUN = pinned_run("tiny")
FIGURE_IDS = sorted({claim_id for src in registered().values()
                     for module in [src.part("figures")] if module is not None
                     for table in (module.FIGURES, module.FIGURES_OF_RUN) for claim_id in table})


@pytest.mark.parametrize("claim_id", FIGURE_IDS)
def test_figure_renders_from_the_tiny_snapshot(claim_id):
    entry = RUN[claim_id]
    if entry["measured"] is None:
        pytest.skip(f"{claim_id} has no tiny snapshot (its test skips on the organism)")
    svg = figure_for(entry, RUN)
    assert svg is not None and svg.startswith("<svg") and "<path" in svg
