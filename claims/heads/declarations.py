"""What seed 001's claim declarations share: the provenance line, prerequisite anchors and the
probability tolerance; and the judging of an anchor's exact checks."""
from __future__ import annotations

from harness.claims import Tolerance
from harness.sources.heads.anchors import Checks, RecordCounts
from harness.sources.heads.layouts import PromptLayouts

NB = "seed 001 notebook output, §{}"
SETUP = ("heads.problem-sets", "heads.disjoint-sets", "heads.main-example",
         "heads.opening-prompts")
MACHINERY = SETUP + ("heads.reference-forward", "heads.edit-receipts")
MAIN = MACHINERY + ("heads.main-prompts",)  # what the 32 main families' studies stand on
CONTENT = MAIN + ("heads.head-identity", "heads.av-identity")
PROB = Tolerance(abs=0.02)
ANCHOR_SITES = ("a profile's sizes may name the blocks and heads a machinery anchor checks "
                "(anchor_blocks, anchor_heads): the rehearsal checks block 31 at heads 0, 7 and "
                "15; published and tiny check every block and head")


def judge_checks(judge, checks: Checks | RecordCounts | PromptLayouts) -> None:
    """An anchor holds when every check does: fail naming the first failures, else judge."""
    assert not checks.failed, f"{len(checks.failed)} checks failed: {checks.failed[:8]}"
    judge(checks.measured())
