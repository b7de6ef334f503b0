"""Seed 001's experiment steps, declared once: the problem sets, the anchors, and each study, which
receives the results it builds on. The lab is the session's one observation record."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from harness.declared_steps import NothingToRun, Resolved, Step
from harness import interventions
from harness.models.handle import Loaded
from harness.reference import NEEDS_LOCAL_WEIGHTS
from harness.sources.heads import against_reference as ref
from harness.sources.heads import against_reference_crossings as xref
from harness.sources.heads import (challenged_screen, content_effects, crossings, fire_once,
                                   grid, screens, sweep)
from harness.sources.heads.anchors import crossing_readback, groups, machinery, readback
from harness.sources.heads.anchors.layouts import PromptLayouts, prompt_layouts
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.sizes import HeadsSizes
from harness.sources.heads.task import ProblemSets, problem_sets, single_token_filter


def anchor(check: Callable[..., Any], family_set: str,
           with_heads: bool = False) -> Callable[..., Any]:
    """`check` on the first family of `family_set` at the sizes' anchor blocks (and heads)."""
    def run(model: Loaded, families: ProblemSets, sizes: HeadsSizes) -> Any:
        heads = (sizes.anchor_heads,) if with_heads else ()
        return check(model, getattr(families, family_set)[0], sizes.anchor_blocks, *heads)
    run.__doc__ = check.__doc__
    return run


def lab(model: Loaded, families: ProblemSets, sizes: HeadsSizes) -> HeadsLab:
    """The session's one observation record: every condition is run once and shared; the
    studies run on the first families of each set the profile's sizes name."""
    return HeadsLab(model, families.opening[:sizes.opening_families],
                    families.main[:sizes.main_families], sizes.sweep_blocks, sizes.screen_heads)


def site(found: HeadsLab, residual: sweep.ResidualSweep, sizes: HeadsSizes) -> sweep.Site:
    """§2's selected block, or the profile's smoke-test block when the rule gives none usable."""
    chosen = sweep.site_for(residual, found.geometry.n_blocks, sizes.smoke_block)
    if chosen is None:
        raise NothingToRun(f"§2's rule selected {residual.retrieval_block}, which leaves no block "
                           "and next block to study, and this profile has no smoke-test block")
    return chosen


def opening(found: HeadsLab, residual: sweep.ResidualSweep,
            at: sweep.Site) -> screens.OpeningScreen:
    """§2: the opening screen at the selected block."""
    return screens.opening_screen(found, residual, at.block)


def main_screen(found: HeadsLab, at: sweep.Site) -> screens.MainScreen:
    """§3: the main screen over the selected block and the next."""
    return screens.main_screen(found, at.blocks)


def sweep_readback(model: Loaded, found: HeadsLab, residual: sweep.ResidualSweep,
                   sizes: HeadsSizes) -> machinery.ExactChecks:
    """§2: the sweep's blocks against the config or the sizes, and its first family read back."""
    declared = readback.declared(model.hf.config.num_hidden_layers, sizes.sweep_blocks)
    return readback.sweep_readback(model, found, residual, declared)


def native_answers(found: HeadsLab, _: screens.MainScreen) -> dict[str, Any]:
    """§3–§6: the main families' native O answers, once the main screen has run them."""
    return readback.native_answers(found)


def screen_readback(model: Loaded, found: HeadsLab, at: sweep.Site, first: screens.OpeningScreen,
                    main: screens.MainScreen, sizes: HeadsSizes) -> machinery.ExactChecks:
    """§2–§3: both screens' first family in O against the reference forward at the site's blocks,
    for every declared head (the config's, or the sizes' screen_heads), and their rankings."""
    return readback.screens_readback(model, found, at, (first.screen, main.screen),
                                     readback.declared(model.hf.config.num_attention_heads,
                                                       sizes.screen_heads))


def first_crossing(found: HeadsLab, at: sweep.Site,
                   first: screens.OpeningScreen) -> crossings.FirstCrossing:
    """§4: the first crossing at the selected blocks and the opening screen's retrieval head;
    none where that screen ties (a tie picks no head)."""
    if first.retrieval_head is None:
        raise NothingToRun(f"§2's opening screen at block {at.block} ties at the top in H, so it "
                           "picks no retrieval head for §4–§6 to run at")
    return crossings.first_crossing(found, at.blocks, first.retrieval_head)


def laid_out(study: str) -> Callable[[ProblemSets, Any], PromptLayouts]:
    """§1: every family of `study` ("opening" or "main") rendered and its layout checked."""
    def layouts(families: ProblemSets, tok: Any) -> PromptLayouts:
        return prompt_layouts(study, getattr(families, study), tok)
    layouts.__doc__ = f"§1: every {study} family's prompts laid out and checked."
    return layouts


LAB = "heads_lab"
# The prompts' layout checks: what their anchors judge, read off the tokenizer; no forward.
LAYOUTS = "the prompts' own layout checks, which their anchors judge: no forward, no write"
ANCHOR = ("heads_model", "heads_families", "heads_sizes")
SITES = ("heads_site", "heads_opening", "heads_support")  # §4–§6's two head sites


def against_reference(name: str, glue: Callable[..., Any], *inputs: str) -> Step:
    """Issue 49: study step `name`'s numbers on a few cells and families against the plain
    reference (against_reference*.py), which runs on the weights in this process."""
    return Step(f"{name}_reference", glue, (*ANCHOR, *inputs), local_weights=NEEDS_LOCAL_WEIGHTS)


STEPS = (
    Step("heads_single_token", single_token_filter, ("heads_tokenizer",)),
    Step("heads_families", problem_sets, ("heads_single_token",)),
    *(Step(f"heads_{study}_layouts", laid_out(study), ("heads_families", "heads_tokenizer"),
           unguarded=LAYOUTS) for study in ("opening", "main")),
    Step("heads_reference_forward", anchor(machinery.reference_equality, "opening"), ANCHOR),
    Step("heads_edit_receipts", anchor(machinery.edit_receipts, "opening"), ANCHOR),
    *interventions.steps("heads_edits", anchor(fire_once.edits, "opening", True), ANCHOR,
                         ("fires",)),
    Step("heads_residual_identity", anchor(machinery.residual_identity, "opening"), ANCHOR),
    Step("heads_head_identity", anchor(machinery.head_identity, "opening", True), ANCHOR),
    Step("heads_av_identity", anchor(machinery.av_identity, "main", True), ANCHOR),
    Step("heads_kv_groups", anchor(groups.kv_groups, "main"), ANCHOR),
    Step(LAB, lab, ANCHOR),
    Step("heads_sweep", sweep.residual_sweep, (LAB,)),
    Step("heads_site", site, (LAB, "heads_sweep", "heads_sizes"),
         unguarded="the block §2's rule reads off the sweep's recorded curve (or the profile's "
                   "smoke-test block): a choice, no forward"),
    Step("heads_opening", opening, (LAB, "heads_sweep", "heads_site")),
    Step("heads_main_screen", main_screen, (LAB, "heads_site")),
    Step("heads_sweep_readback", sweep_readback, ("heads_model", LAB, "heads_sweep",
                                                  "heads_sizes")),
    Step("heads_native_answers", native_answers, (LAB, "heads_main_screen")),
    Step("heads_screen_readback", screen_readback, ("heads_model", LAB, "heads_site",
                                                    "heads_opening", "heads_main_screen",
                                                    "heads_sizes")),
    Step("heads_first_crossing", first_crossing, (LAB, "heads_site", "heads_opening")),
    Step("heads_challenged", challenged_screen.challenged_screen,
         (LAB, "heads_main_screen", "heads_first_crossing")),
    Step("heads_support", challenged_screen.support_site, ("heads_challenged",),
         unguarded="the challenged screen's winner: a choice read off its recorded ranking, no "
                   "forward"),
    Step("heads_content", content_effects.content_effects,
         (LAB, "heads_first_crossing", "heads_support")),
    Step("heads_joint", grid.joint_crossing, (LAB, "heads_first_crossing", "heads_content")),
    Step("heads_grid", grid.grid, (LAB, "heads_main_screen", "heads_first_crossing",
                                   "heads_challenged", "heads_content", "heads_joint")),
    Step("heads_crossing_readback", crossing_readback.crossing_readback,
         ("heads_model", LAB, "heads_first_crossing", "heads_content", "heads_joint",
          "heads_grid")),
    Step("heads_record_counts", machinery.record_counts, (LAB, "heads_grid")),
    against_reference("heads_sweep", ref.sweep, LAB, "heads_sweep"),
    against_reference("heads_opening", ref.opening, "heads_site", "heads_opening"),
    against_reference("heads_main_screen", ref.main_screen, "heads_site", "heads_main_screen"),
    against_reference("heads_native_answers", ref.native_answers, LAB, "heads_native_answers"),
    against_reference("heads_first_crossing", xref.first_crossing, LAB, "heads_site",
                      "heads_opening", "heads_first_crossing"),
    against_reference("heads_challenged", xref.challenged, "heads_site", "heads_opening",
                      "heads_challenged"),
    against_reference("heads_content", xref.content, LAB, *SITES, "heads_content"),
    against_reference("heads_joint", xref.joint, LAB, *SITES, "heads_joint"),
    against_reference("heads_grid", xref.grid, LAB, *SITES, "heads_grid"),
    against_reference("heads_record_counts", ref.record_counts, LAB, "heads_site",
                      "heads_record_counts"),
)


def resolved(model: Loaded, sizes: HeadsSizes, opening: int, main: int) -> Resolved:
    """These steps on the first `opening` and `main` families at `sizes`, each run once when first
    read: what the known answers' and the breakage catalogue's checks run."""
    return Resolved(STEPS, {"heads_model": model, "heads_tokenizer": model.tok,
                            "heads_sizes": replace(sizes, opening_families=opening,
                                                   main_families=main)})
