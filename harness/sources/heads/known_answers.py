"""Seed 001 §2–§5's known answers: what each study must recover on the compiled organism (its
manifest's "planted" block), declared once for the claims, whose own test bodies the checks below
run on the micro profile's few families (harness.known_answer_studies), so a study made a no-op
shows as a missed mechanism."""
from __future__ import annotations

from typing import Any, Callable

from harness import known_answer_studies
from harness.criteria import Every, Exact, IsPlanted, KnownAnswer, all_of
from harness.models.handle import Loaded
from harness.sources.heads import steps
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


def checks(model: Loaded, sizes: HeadsSizes, planted: dict[str, Any]
           ) -> dict[str, Callable[[], list[str]]]:
    """For each claim that declares a known answer, a check (no failures: an empty list) that
    runs its own test body on the micro profile's first families (the modules imported now) and
    judges the result against `planted`; with no block to study (or, for §3's control and §5's
    screen, no retrieval head), it has nothing to run and misses."""
    from harness.registry import source

    run = steps.resolved(model, sizes, MICRO.opening_families, MICRO.main_families)
    return known_answer_studies.checks(source("heads").claims_folder(), run, planted)
