"""Seed 001 §2–§6's studies in order on one lab of a few families, each run once when first asked
for: what the known answers' and the breakage catalogue's checks run (the claims run the same
functions as declared steps, steps.py)."""
from __future__ import annotations

from functools import cached_property

from harness.models.loaded import Loaded
from harness.sources.heads import (challenged_screen, content_effects, crossings, grid, screens,
                                   sweep)
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.sizes import HeadsSizes
from harness.sources.heads.task import ProblemSets, problem_sets, single_token_filter


class Chain:
    """§2–§6 on the first `opening` and `main` families at `sizes` (`residual` is §2's sweep,
    `cells` §6's grid); `site` is None where §2's rule leaves no block, and the studies after §3
    need the opening screen's retrieval head."""

    def __init__(self, model: Loaded, sizes: HeadsSizes, opening: int, main: int) -> None:
        self.model, self.sizes, self.counts = model, sizes, (opening, main)

    @cached_property
    def sets(self) -> ProblemSets:
        return problem_sets(single_token_filter(self.model.tok))

    @cached_property
    def lab(self) -> HeadsLab:
        opening, main = self.counts
        return HeadsLab(self.model, self.sets.opening[:opening], self.sets.main[:main],
                        self.sizes.sweep_blocks, self.sizes.screen_heads)

    @cached_property
    def residual(self) -> sweep.ResidualSweep:
        return sweep.residual_sweep(self.lab)

    @cached_property
    def site(self) -> sweep.Site | None:
        return sweep.site_for(self.residual, self.lab.geometry.n_blocks, self.sizes.smoke_block)

    @cached_property
    def opening(self) -> screens.OpeningScreen:
        return screens.opening_screen(self.lab, self.residual, self.site.block)

    @cached_property
    def main(self) -> screens.MainScreen:
        return screens.main_screen(self.lab, self.site.blocks)

    @cached_property
    def first(self) -> crossings.FirstCrossing:
        return crossings.first_crossing(self.lab, self.site.blocks, self.opening.retrieval_head)

    @cached_property
    def challenged(self) -> challenged_screen.ChallengedScreen:
        return challenged_screen.challenged_screen(self.lab, self.main, self.first)

    @cached_property
    def content(self) -> content_effects.ContentEffects:
        support = challenged_screen.support_site(self.challenged, self.sizes.support_on_tie)
        return content_effects.content_effects(self.lab, self.first, support)

    @cached_property
    def joint(self) -> grid.JointCrossing:
        return grid.joint_crossing(self.lab, self.first, self.content)

    @cached_property
    def cells(self) -> grid.Grid:
        return grid.grid(self.lab, self.main, self.first, self.challenged, self.content,
                         self.joint)
