"""What seed 001's claim declarations share: the provenance line, the steps its anchors guard, the
probability tolerance and what every machinery anchor must hold on every profile."""
from __future__ import annotations

from harness.claims import Holds
from harness.snapshots import Tolerance
from harness.criteria import NoneFailed

NB = "seed 001 notebook output, §{}"
# The steps its anchors guard (harness/plugin/guards.py; harness/sources/heads/steps.py): a test
# requires every anchor guarding a step it reads.
SETUP = ("heads_single_token", "heads_families")  # the single-token filter and the problem sets
# What runs through the lab's and the machinery anchors' forwards and edits.
MACHINERY = ("heads_lab", "heads_residual_identity", "heads_head_identity", "heads_av_identity",
             "heads_kv_groups")
# What renders the main families' prompts (§3–§6, and the anchors run on main family 0).
MAIN = ("heads_av_identity", "heads_kv_groups", "heads_main_screen", "heads_first_crossing")
# §4–§6: every study under a crossing (O attention with D's values).
CROSSED = ("heads_first_crossing", "heads_challenged", "heads_content", "heads_joint", "heads_grid")
# §2–§6: every study run after §2 chose its block, which edits heads and is recorded once each
# (not §2's transplant, whose runs come before a block is chosen, and which would read "blocked"
# where the rule chose none).
STUDIED = ("heads_opening", "heads_main_screen") + CROSSED
PROB = Tolerance(abs=0.02)
EVERY_CHECK = Holds(NoneFailed())  # §1–§7: an anchor's every exact check holds, on every profile
ANCHOR_SITES = ("a profile's sizes may name the blocks and heads a machinery anchor checks "
                "(anchor_blocks, anchor_heads): the rehearsal checks block 31 at heads 0, 7 and "
                "15; published and tiny check every block and head")

