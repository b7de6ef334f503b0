"""Seed 001's reference anchors as the breakage catalogue runs them (issue 49): the studies of
the catalogue's own chain (one family of each set, already run by the earlier checks), then §2's
sweep again on WIDE opening families, built only when its check runs."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from harness.catalogue import Checks
from harness.declared_steps import NothingToRun
from harness.models.loaded import Loaded
from harness.reference import Comparison, failures
from harness.sources.heads import against_reference as ref
from harness.sources.heads import against_reference_crossings as xref
from harness.sources.heads import chain, challenged_screen, steps
from harness.sources.heads.anchors import machinery
from harness.sources.heads.sizes import HeadsSizes

# Four opening families for the sweep (and one main, unread): a summary over one family cannot
# tell a mean from any other aggregate of it, and below four a bootstrap's 2.5% quantile is the
# least family's value whatever its seed (all of n draws land on it with chance n^-n).
WIDE = (4, 1)


def reference_checks(model: Loaded, sizes: HeadsSizes, run: chain.Chain) -> Checks:
    """Each heads.*-reference anchor's comparison, its failures named by study: §2–§7 on `run`
    (whose studies the earlier checks ran), the sweep's on WIDE opening families; where §2–§5
    chose no block or head for a study to run at, that reason instead."""
    opening, main = run.counts
    narrow = replace(sizes, opening_families=opening, main_families=main)
    wide_sizes = replace(narrow, opening_families=WIDE[0], main_families=WIDE[1])
    wide = chain.Chain(model, wide_sizes, *WIDE)

    def unrun(on: chain.Chain, stage: int) -> list[str]:
        """Why a study of `stage` (0: §2's sweep, needing nothing; 1: needing §2's block; 2: the
        retrieval head; 3: the support head) has nothing to run at on `on`, if it has not."""
        if stage and on.site is None:
            return ["§2's rule chose no block, so §2–§6 have nothing to run"]
        if stage > 1 and on.opening.retrieval_head is None:
            return ["§2's opening screen ties, so §4–§6 have no retrieval head"]
        if stage > 2:
            try:
                challenged_screen.support_site(on.challenged, on.sizes.support_on_tie)
            except NothingToRun as reason:
                return [str(reason)]
        return []

    def check(stage: int, compare: Callable[..., Comparison],
              inputs: Callable[[], tuple[Any, ...]], wider: bool = False) -> Callable[[], list[str]]:
        on, at = (wide, wide_sizes) if wider else (run, narrow)

        def failed() -> list[str]:
            return unrun(on, stage) or failures(compare(model, on.sets, at, *inputs()))
        return failed

    def support() -> challenged_screen.Support:
        return challenged_screen.support_site(run.challenged, narrow.support_on_tie)

    def native() -> tuple[Any, ...]:
        return run.lab, steps.native_answers(run.lab, run.main)  # read once the main screen ran

    sites = lambda: (run.lab, run.site, run.opening, support())  # noqa: E731
    return {
        "heads.opening-reference": check(1, ref.opening, lambda: (run.site, run.opening)),
        "heads.main-screen-reference": check(1, ref.main_screen, lambda: (run.site, run.main)),
        "heads.native-answers-reference": check(1, ref.native_answers, native),
        "heads.first-crossing-reference": check(2, xref.first_crossing, lambda: (
            run.lab, run.site, run.opening, run.first)),
        "heads.challenged-reference": check(2, xref.challenged, lambda: (
            run.site, run.opening, run.challenged)),
        "heads.content-reference": check(3, xref.content, lambda: (*sites(), run.content)),
        "heads.joint-reference": check(3, xref.joint, lambda: (*sites(), run.joint)),
        "heads.grid-reference": check(3, xref.grid, lambda: (*sites(), run.cells)),
        "heads.record-counts-reference": check(3, ref.record_counts, lambda: (
            run.lab, run.site, machinery.record_counts(run.lab, run.cells))),
        "heads.sweep-reference": check(0, ref.sweep, lambda: (wide.lab, wide.residual), True),
    }
