"""Seed 004's breakage catalogue: every edit listed in harness/sources/patching/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields, judge_catalogue
from harness.claims import claim


@claim("patching.breakages-caught", section="code cell",
       **claim_fields(
           "Every catalogued breakage of the whole-stream, position and batched patches fails an anchor."))
def test_breakages_caught(judge, patching_breakages):
    judge_catalogue(judge, patching_breakages)
