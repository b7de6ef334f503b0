"""Seed 003's breakage catalogue: every edit listed in harness/sources/lookback/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields
from harness.claims import claim


test_breakages_caught = claim("lookback.breakages-caught", reads="lookback_breakages",
    section="4–7",
    **claim_fields(
        "Every catalogued breakage of §4–§7's writes (interchanges, source sweeps, answer patches, low-rank writes), their studies' logic, their readouts and their batched rows fails an anchor."))
