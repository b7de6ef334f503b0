"""Seed 001's breakage catalogue: every edit listed in harness/sources/heads/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields
from harness.claims import claim


test_breakages_caught = claim("heads.breakages-caught", reads="heads_breakages",
    section="1–6",
    **claim_fields(
        "Every catalogued breakage of §1's residual and head edits, §4's key/value grouping, "
        "§2–§6's studies and the readouts of what a forward returned fails an anchor."))
