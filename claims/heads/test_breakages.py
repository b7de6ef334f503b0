"""Seed 001's breakage catalogue: every edit listed in harness/sources/heads/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields, judge_catalogue
from harness.claims import claim


@claim("heads.breakages-caught", section="1–2",
       **claim_fields(
           "Every catalogued breakage of §1–§2's residual and head edits fails an anchor."))
def test_breakages_caught(judge, heads_breakages):
    judge_catalogue(judge, heads_breakages)
