"""Seed 001 §2–§5's known answers: what each study must recover on the compiled organism (its
manifest's "planted" block), declared once for the claims and for the checks below, which run
the studies on the micro profile's few families, so a study made a no-op shows as a missed
mechanism."""
from __future__ import annotations

from typing import Any, Callable

from harness.criteria import Every, Exact, IsPlanted, KnownAnswer, all_of
from harness.criteria.planted import known_answer_checks
from harness.models.handle import Loaded
from harness.sources.heads import readouts, steps
from harness.sources.heads.sizes import MICRO, HeadsSizes

KNOWN: dict[str, KnownAnswer] = {
    # §2: the transplant rule selects the block the organism plants its lookup in.
    "heads.residual-transplant": KnownAnswer(Exact("retrieval_block"), planted="retrieval_block"),
    # §2: the opening screen's winner (none on a tie) is the planted head.
    "heads.opening-screen": KnownAnswer(IsPlanted("site", "retrieval_head"),
                                        planted="retrieval_head"),
    # §3: the planted head carries the lookup, so no deletion a block later moves an answer; the
    # positive control, deleting both planted heads (§6's zero-zero cell), must break them all.
    "heads.block32-screen": KnownAnswer(all_of(IsPlanted("control_site", "retrieval_head"),
                                               Every("ordinary_survivors", "deletions"),
                                               Every("control_broken", "control_deletions")),
                                        planted="retrieval_head"),
    # §5: with the retrieval head crossed, the planted support head holds up p(L) the most.
    "heads.challenged-screen": KnownAnswer(IsPlanted("support_site", "support_head"),
                                           planted="support_head"),
}


def studies(model: Loaded, sizes: HeadsSizes) -> dict[str, Callable[[], dict[str, Any]]]:
    """For each claim in KNOWN, its study on the micro profile's first families (the modules
    imported now), returning what the claim's known answer reads; with no block to study (or,
    for §3's control and §5's screen, no retrieval head), the keys it reads are empty."""
    run = steps.resolved(model, sizes, MICRO.opening_families, MICRO.main_families)

    def sited(study: Callable[[], dict[str, Any]], keys: dict[str, Any],
              head: bool = False) -> Callable:
        return lambda: (keys if run.reason("heads_site") is not None
                        or head and run["heads_opening"].retrieval_head is None else study())

    return {
        "heads.residual-transplant": lambda: readouts.residual_transplant(run["heads_sweep"]),
        "heads.opening-screen": sited(lambda: readouts.opening_screen(run["heads_opening"],
                                                                      run["heads_site"]),
                                      {"site": None}),
        "heads.block32-screen": sited(
            lambda: readouts.next_block_screen(run["heads_main_screen"], run["heads_site"],
                                               run["heads_grid"]),
            {"control_site": None, "ordinary_survivors": 0, "deletions": 0,
             "control_broken": 0, "control_deletions": 0}, head=True),
        "heads.challenged-screen": sited(
            lambda: readouts.challenged_screen(run["heads_challenged"], run["heads_site"]),
            {"support_site": None}, head=True),
    }


def checks(model: Loaded, sizes: HeadsSizes, planted: dict[str, Any]
           ) -> dict[str, Callable[[], list[str]]]:
    """For each claim in KNOWN, a check (no failures: an empty list) that runs its study and
    judges the result against `planted`."""
    return known_answer_checks(KNOWN, studies(model, sizes), planted)
