"""Seed 001's edits under the suite's fire-once rule: each, made by the experiment's own forward,
writes exactly its declared site (harness.fire_once; seed 000 §6's pattern)."""
from __future__ import annotations

from claims.heads.declarations import ANCHOR_SITES, MACHINERY
from harness.claims import claim
from harness.fire_once import claim_fields


test_edits_fire_once = claim("heads.edits-fire-once", reads="heads_edits_fires",
    section="1",
    **claim_fields("Each §2–§6 residual and head edit, made by the experiment's own forward, writes its value into what enters its block or its head's slice of o_proj's input at the final position, in its own forward, and nothing else.",
                   "the suite's fire-once rule, seed 000 §6's second prerequisite applied to seed 001 §1's edits"),
    guards=MACHINERY,
    decisions=("the edits are declared as input and head sites (block, head, width, position, "
               "value) and checked by the shared engine, which reads what entered each block and "
               "what each o_proj consumed; on opening family 0's R prompt, three forwards at "
               "every block: D's output of each head written into it; D's residual into the "
               "block's input with every head zeroed; and D's output of the first head with the "
               "next block's last head zeroed",
               ANCHOR_SITES))
