"""What seed 001's claim declarations share: the provenance line, prerequisite anchors, the
probability tolerance and what every machinery anchor must hold on every profile."""
from __future__ import annotations

from harness.claims import Holds
from harness.snapshots import Tolerance
from harness.criteria import NoneFailed

NB = "seed 001 notebook output, §{}"
SETUP = ("heads.problem-sets", "heads.disjoint-sets", "heads.main-example",
         "heads.opening-prompts")
MACHINERY = SETUP + ("heads.reference-forward", "heads.edit-receipts")
MAIN = MACHINERY + ("heads.main-prompts",)  # what the 32 main families' studies stand on
CONTENT = MAIN + ("heads.head-identity", "heads.av-identity", "heads.kv-groups")
# §7: the receipts, reference and upstream checks of every run the §2–§6 studies made, and §2's
# screens read back; every finding read from those runs requires them (not §2's transplant, whose runs come before a
# block is chosen, and which would read "blocked" where the rule chose none).
SWEPT = ("heads.sweep-readback",)
RECORDED = SWEPT + ("heads.record-counts", "heads.screen-readback")
# §3–§6 read moves away from the native answer L: the model must give it (behavioural).
NATIVE = ("heads.native-answers",)
# §4–§6's crossings, effects and grid cells read back (block 32's control is the grid's cell).
CROSSED = ("heads.crossing-readback",)
STUDIED = CONTENT + RECORDED + NATIVE + CROSSED
PROB = Tolerance(abs=0.02)
EVERY_CHECK = Holds(NoneFailed())  # §1–§7: an anchor's every exact check holds, on every profile
ANCHOR_SITES = ("a profile's sizes may name the blocks and heads a machinery anchor checks "
                "(anchor_blocks, anchor_heads): the rehearsal checks block 31 at heads 0, 7 and "
                "15; published and tiny check every block and head")

