"""Seed 004's breakage catalogue: every edit listed in harness/sources/patching/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields
from harness.claims import claim


test_breakages_caught = claim("patching.breakages-caught", reads="patching_breakages",
    section="code cell",
    **claim_fields(
        "Every catalogued breakage of the whole-stream, position and batched patches fails an anchor."))
