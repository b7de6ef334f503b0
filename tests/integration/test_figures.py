"""Every report figure draws from the values its claim pins, as inline SVG."""
from __future__ import annotations

import pytest

from harness.reporting.figures import figure_for
from harness.registry import registered
from tests.pinned import pinned_entries

RUN = {e["id"]: e for e in pinned_entries("tiny")}
FIGURE_IDS = sorted({claim_id for src in registered().values() for claim_id in src.figures.claim_ids})


@pytest.mark.parametrize("claim_id", FIGURE_IDS)
def test_figure_renders_from_the_tiny_snapshot(claim_id):
    entry = RUN[claim_id]
    if entry["measured"] is None:
        pytest.skip(f"{claim_id} has no tiny snapshot (its test skips on the organism)")
    svg = figure_for(entry, RUN)
    assert svg is not None and svg.startswith("<svg") and "<path" in svg


def test_the_challenged_screen_draws_without_the_block32_screens_numbers():
    """Seed 001 §5: a block32-screen entry that measured nothing (blocked, or skipped) leaves the
    challenged screen's figure its own screen."""
    entry = RUN["heads.challenged-screen"]
    run = {**RUN, "heads.block32-screen": {**RUN["heads.block32-screen"], "measured": None}}
    assert figure_for(entry, run).startswith("<svg")
