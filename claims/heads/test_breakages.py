"""Seed 001's breakage catalogue: every edit listed in harness/sources/heads/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields, judge_catalogue
from harness.claims import claim


@claim("heads.breakages-caught", section="1–6",
       **claim_fields(
           "Every catalogued breakage of §1's residual and head edits, §4's key/value grouping, "
           "§2–§6's studies and the readouts of what a forward returned fails an anchor."))
def test_breakages_caught(judge, heads_breakages):
    judge_catalogue(judge, heads_breakages)
