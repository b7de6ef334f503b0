"""Seed 001 §2–§3's known answers: what each study must recover on the compiled organism (its
manifest's "planted" block), declared once for the claims and for the checks below, which run
the studies on the micro profile's few families, so a study made a no-op shows as a missed
mechanism."""
from __future__ import annotations

from functools import cache
from typing import Any, Callable

from harness.criteria import Every, Exact, IsPlanted, KnownAnswer, all_of
from harness.criteria.planted import known_answer_checks
from harness.models.loaded import Loaded
from harness.sources.heads import (challenged_screen, content_effects, crossings, grid, readouts,
                                   screens, sweep)
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.sizes import MICRO, HeadsSizes
from harness.sources.heads.task import problem_sets, single_token_filter

KNOWN: dict[str, KnownAnswer] = {
    # §2: the transplant rule selects the block the organism plants its lookup in.
    "heads.residual-transplant": KnownAnswer(Exact("retrieval_block"), planted="retrieval_block"),
    # §2: the opening screen's winner (none on a tie) is the planted head.
    "heads.opening-screen": KnownAnswer(IsPlanted("site", "retrieval_head"),
                                        planted="retrieval_head"),
    # §3: one planted head carries the lookup, so no deletion a block later moves an answer; the
    # positive control, deleting the planted head (§6's zero-normal cell), must break them all.
    "heads.block32-screen": KnownAnswer(all_of(IsPlanted("control_site", "retrieval_head"),
                                               Every("ordinary_survivors", "deletions"),
                                               Every("control_broken", "control_deletions")),
                                        planted="retrieval_head"),
}


def studies(model: Loaded, sizes: HeadsSizes) -> dict[str, Callable[[], dict[str, Any]]]:
    """For each claim in KNOWN, its study on the micro profile's first families (the modules
    imported now), returning what the claim's known answer reads; with no block to study, the
    keys it reads are empty."""
    sets = problem_sets(single_token_filter(model.tok))
    lab = HeadsLab(model, sets.opening[:MICRO.opening_families], sets.main[:MICRO.main_families],
                   sizes.sweep_blocks, sizes.screen_heads)
    swept = cache(lambda: sweep.residual_sweep(lab))
    site = cache(lambda: sweep.site_for(swept(), lab.geometry.n_blocks, sizes.smoke_block))
    opening = cache(lambda: screens.opening_screen(lab, swept(), site().block))
    main = cache(lambda: screens.main_screen(lab, site().blocks))

    def last() -> grid.Grid:
        first = crossings.first_crossing(lab, site().blocks, opening().retrieval_head)
        challenged = challenged_screen.challenged_screen(lab, main(), first)
        content = content_effects.content_effects(lab, first, challenged)
        joint = grid.joint_crossing(lab, first, content)
        return grid.grid(lab, main(), first, challenged, content, joint)

    def sited(study: Callable[[], dict[str, Any]], keys: dict[str, Any]) -> Callable:
        return lambda: keys if site() is None else study()

    return {
        "heads.residual-transplant": lambda: readouts.residual_transplant(swept()),
        "heads.opening-screen": sited(lambda: readouts.opening_screen(opening(), site()),
                                      {"site": None}),
        "heads.block32-screen": sited(lambda: readouts.next_block_screen(main(), site(), last()),
                                      {"control_site": None, "ordinary_survivors": 0,
                                       "deletions": 0, "control_broken": 0,
                                       "control_deletions": 0}),
    }


def checks(model: Loaded, sizes: HeadsSizes, planted: dict[str, Any]
           ) -> dict[str, Callable[[], list[str]]]:
    """For each claim in KNOWN, a check (no failures: an empty list) that runs its study and
    judges the result against `planted`."""
    return known_answer_checks(KNOWN, studies(model, sizes), planted)
