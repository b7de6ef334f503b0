"""Seed 000's breakage catalogue: every edit listed in harness/sources/cot/breakages.py
fails an anchor (harness.catalogue)."""
from __future__ import annotations

from harness.catalogue import claim_fields
from harness.claims import claim


test_breakages_caught = claim("cot.breakages-caught", reads="cot_breakages",
    section="6–7",
    **claim_fields(
        "Every catalogued breakage of §1–§5's studies, §6's bump and noise, §7's vector writes, "
        "screen and random control, their readouts and fast mode's batched rows fails an anchor."))
