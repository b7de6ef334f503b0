"""Seed 001's reference anchors as the breakage catalogue runs them (issue 49): the declared
steps on one family of each set (already run by the earlier checks), then §2's sweep again on
WIDE opening families, built only when its check runs."""
from __future__ import annotations

from typing import Callable

from harness.catalogue import Checks
from harness.declared_steps import Resolved
from harness.models.loaded import Loaded
from harness.reference import Comparison, failures
from harness.sources.heads import against_reference as ref
from harness.sources.heads import against_reference_crossings as xref
from harness.sources.heads import steps
from harness.sources.heads.steps import LAB

# Four opening families for the sweep (and one main, unread): a summary over one family cannot
# tell a mean from any other aggregate of it, and below four a bootstrap's 2.5% quantile is the
# least family's value whatever its seed (all of n draws land on it with chance n^-n).
WIDE = (4, 1)


def unrun(on: Resolved, stage: int) -> list[str]:
    """Why a study of `stage` (0: §2's sweep, needing nothing; 1: needing §2's block; 2: the
    retrieval head; 3: the support head) has nothing to run at on `on`, if it has not."""
    if stage and on.reason("heads_site") is not None:
        return ["§2's rule chose no block, so §2–§6 have nothing to run"]
    if stage > 1 and on["heads_opening"].retrieval_head is None:
        return ["§2's opening screen ties, so §4–§6 have no retrieval head"]
    if stage > 2 and (reason := on.reason("heads_support")) is not None:
        return [reason]
    return []


def reference_checks(model: Loaded, run: Resolved) -> Checks:
    """Each heads.*-reference anchor's comparison, its failures named by study: §2–§7 on `run`
    (whose studies the earlier checks ran), the sweep's on WIDE opening families; where §2–§5
    chose no block or head for a study to run at, that reason instead."""
    narrow = run["heads_sizes"]
    wide = steps.resolved(model, narrow, *WIDE)

    def check(stage: int, compare: Callable[..., Comparison], *inputs: str,
              wider: bool = False) -> Callable[[], list[str]]:
        on = wide if wider else run

        def failed() -> list[str]:
            return unrun(on, stage) or failures(compare(
                model, on["heads_families"], on["heads_sizes"], *(on[i] for i in inputs)))
        return failed

    sites = (LAB, "heads_site", "heads_opening", "heads_support")
    return {
        "heads.opening-reference": check(1, ref.opening, "heads_site", "heads_opening"),
        "heads.main-screen-reference": check(1, ref.main_screen, "heads_site",
                                             "heads_main_screen"),
        "heads.native-answers-reference": check(1, ref.native_answers, LAB,
                                                "heads_native_answers"),
        "heads.first-crossing-reference": check(2, xref.first_crossing, LAB, "heads_site",
                                                "heads_opening", "heads_first_crossing"),
        "heads.challenged-reference": check(2, xref.challenged, "heads_site", "heads_opening",
                                            "heads_challenged"),
        "heads.content-reference": check(3, xref.content, *sites, "heads_content"),
        "heads.joint-reference": check(3, xref.joint, *sites, "heads_joint"),
        "heads.grid-reference": check(3, xref.grid, *sites, "heads_grid"),
        "heads.record-counts-reference": check(3, ref.record_counts, LAB, "heads_site",
                                               "heads_record_counts"),
        "heads.sweep-reference": check(0, ref.sweep, LAB, "heads_sweep", wider=True),
    }
