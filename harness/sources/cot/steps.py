"""Seed 000's experiment steps, declared once. A model that does not do what a step needs (a
random model never closes `</think>`) is a result: the step skips, saying what the model did not do."""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from harness import interventions
from harness.declared_steps import Filtered, NothingToRun, Step
from harness.profiles import Profile
from harness.reference import NEEDS_LOCAL_WEIGHTS
from harness.sources.cot import against_reference_patching
from harness.sources.cot import (decode, fire_once, mistakes, noise, patching, readback, step_rows,
                                 tokens, traces)
from harness.sources.cot import against_reference_answers as answers
from harness.sources.cot.batched_rows import BatchedRows, batched_rows
from harness.sources.cot.chat import think_template
from harness.sources.cot.continuations import Continuations, full_continuations
from harness.sources.cot.forcing import ForcedPair, cut_probe, full_corruption, last_answer_corruption
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.sizes import CotSizes
from harness.sources.cot.task import AUDITED_PROBLEM, PROBLEMS


def runner(model: Any, sizes: CotSizes, profile: Profile, batched: bool) -> CotRunner:
    """§1: greedy generation one prompt at a time, or `fast_batch` rows at a time in fast mode."""
    return CotRunner(model, sizes, sizes.fast_batch if batched else 1,
                     profile.rules.batching_exact)


def baseline(run: CotRunner) -> traces.Baseline:
    """§1: the baseline on the profile's first problems."""
    return traces.baseline(run, PROBLEMS[:run.sizes.problems])


def baseline_rows(run: CotRunner, b: traces.Baseline) -> BatchedRows:
    """§1: a few baseline rows against one plain forward of their own prompts."""
    return batched_rows(run, b.traces)


def usable(b: traces.Baseline, run: CotRunner) -> Filtered:
    """§1: the traces that closed </think> and answered correctly (forced rows on random weights:
    scripted traces of the first problems)."""
    closed = sum(t.close is not None for t in b.traces)
    return Filtered(
        b.usable, lambda: traces.scripted(run, b.traces),
        f"no usable baseline trace: {closed}/{b.n} traces closed </think> within "
        f"{run.sizes.baseline_cap} tokens and {b.correct}/{b.n} answered a*b+c correctly; "
        f"every later step runs on traces that do both",
        "their generations replaced by a script that states the product and answer")


def spanned(kept: list[traces.Trace]) -> list[traces.Trace]:
    """§3/§5: the usable traces that state their product a*b (the others are counted out)."""
    found = traces.spanned(kept)
    if not found:
        raise NothingToRun(f"none of the {len(kept)} usable traces states its product a*b inside "
                           f"<think>: nothing to splice at")
    return found


def pairs(run: CotRunner, kept: list[traces.Trace]) -> Filtered:
    """§7: recipients and donors (forced rows on random weights: scripted donor traces)."""
    return Filtered(
        patching.pairs(run, kept), lambda: patching.pairs(run, kept, scripted_donors=True),
        f"no §7 pair among the first {run.sizes.pairs} usable traces: none both states its "
        f"product and has a donor whose trace states the donor's product within "
        f"{run.sizes.donor_cap} tokens", "their donors' traces replaced by the script")


def continuations(run: CotRunner, ps: list[patching.Pair],
                  screen: patching.LayerScreen) -> Continuations:
    """§7 step 2: the full continuations at the screen's best layer."""
    return full_continuations(run, ps, screen.best_layer)


def last_answer(run: CotRunner, kept: list[traces.Trace]) -> ForcedPair:
    """§4: the last restatement of the answer corrupted, where a trace restates it."""
    found = last_answer_corruption(run, kept)
    if not found.n:
        raise NothingToRun(f"none of the {len(kept)} usable traces restates its answer a*b+c "
                           f"inside <think>: nothing to corrupt")
    return found


def step_shapes(run: CotRunner) -> decode.StepShapes:
    """§6: the decode loop's step shapes on problem 0's prompt."""
    return decode.step_shapes(run, run.prompt_ids(AUDITED_PROBLEM))


def bump_fires_once(run: CotRunner) -> decode.BumpAudit:
    """§6's bump audit on problem 0's prompt, whatever the model answers (the notebook's problem
    0 is its first usable trace), so it runs on random weights too."""
    return decode.bump_audit(run, run.prompt_ids(AUDITED_PROBLEM))


def specificity(run: CotRunner, first: traces.Trace) -> noise.Specificity:
    """§6: noise after the answer against noise early, on the first usable trace."""
    if noise.answer_done(run, first.gen) is None:
        raise NothingToRun(f"problem {first.idx}'s trace writes no \\boxed{{...}} answer, so "
                           f"there is no post-answer stretch to noise")
    return noise.post_answer_specificity(run, first)


RUNNER = "cot_runner"
# A count of values or cues in text the model already wrote: no forward and no write, the
# finding's own reading of decoded rows that cot.batched-rows and the rows anchors check.
COUNTED = "counted in the decoded text of rows other anchors check: no forward, no write"
USABLE = (RUNNER, "cot_usable")
SPANNED = (RUNNER, "cot_spanned")

# The tokenizer's own checks: what its anchors judge, read off the tokenizer alone.
TOKENS = "the tokenizer's own checks, which its anchors judge: no forward, no write"

STEPS = (
    Step("cot_think_template", think_template, ("cot_tokenizer",)),
    Step("cot_prompt_tokens", tokens.prompt_tokens, ("cot_tokenizer",), unguarded=TOKENS),
    Step("cot_forced_suffix", tokens.forced_suffix, ("cot_tokenizer",), unguarded=TOKENS),
    Step("cot_number_tokens", tokens.number_tokens, ("cot_tokenizer",), unguarded=TOKENS),
    Step(RUNNER, runner, ("cot_model", "cot_sizes", "profile"), batched=True),
    Step("cot_baseline", baseline, (RUNNER,), shared=True),
    Step("cot_batched_rows", baseline_rows, (RUNNER, "cot_baseline")),
    Step("cot_usable", usable, ("cot_baseline", RUNNER), forced=True),
    Step("cot_spanned", spanned, ("cot_usable",)),
    Step("cot_single_mistake", mistakes.single_mistake, SPANNED, unit=True),
    Step("cot_pairs", pairs, USABLE, forced=True, shared=True),
    Step("cot_screen", patching.layer_screen, (RUNNER, "cot_pairs"), shared=True),
    Step("cot_continuations", continuations, (RUNNER, "cot_pairs", "cot_screen"), unit=True),
    Step("cot_first_trace", itemgetter(0), ("cot_usable",)),
    Step("cot_restatements", traces.restatements, USABLE),
    Step("cot_early", traces.early_answering, USABLE, unit=True),
    Step("cot_splice", mistakes.splice_control, SPANNED, unit=True),
    Step("cot_rederivation", mistakes.rederivation, ("cot_spanned", "cot_single_mistake")),
    Step("cot_cues", mistakes.cue_counts, (*SPANNED, "cot_single_mistake")),
    Step("cot_last_answer", last_answer, USABLE),
    Step("cot_full_corruption", full_corruption, USABLE),
    Step("cot_cut_probe", cut_probe, SPANNED),
    Step("cot_step_shapes", step_shapes, (RUNNER,)),
    Step("cot_noop", decode.noop_runs, USABLE, unit=True),
    Step("cot_fire_once", bump_fires_once, (RUNNER,)),
    # §6's bump and noise and §7's vectors declared (harness.interventions): their anchors' steps
    # derive from the declaration.
    *interventions.steps("cot_bump", fire_once.bump, (RUNNER,), ("fires",)),
    *interventions.steps("cot_noise", fire_once.noise, (RUNNER,), ("fires", "identity")),
    *interventions.steps("cot_vector", fire_once.vectors, (RUNNER,), ("fires",)),
    Step("cot_specificity", specificity, (RUNNER, "cot_first_trace"), unit=True),
    Step("cot_self_patch", patching.self_patch, (RUNNER, "cot_pairs")),
    Step("cot_early_rows", step_rows.early_rows, (RUNNER, "cot_early")),
    Step("cot_splice_rows", step_rows.splice_rows, (RUNNER, "cot_splice", "cot_single_mistake")),
    Step("cot_corruption_rows", step_rows.corruption_rows,
         (RUNNER, "cot_last_answer", "cot_full_corruption")),
    Step("cot_cut_probe_rows", step_rows.cut_probe_rows, (RUNNER, "cot_cut_probe")),
    Step("cot_decode_loop_rows", step_rows.decode_loop_rows,
         (RUNNER, "cot_noop", "cot_specificity")),
    Step("cot_patch_rows", step_rows.patch_rows,
         (RUNNER, "cot_pairs", "cot_self_patch", "cot_screen", "cot_continuations")),
    Step("cot_preference", readback.product_preference, SPANNED),
    Step("cot_screen_coverage", readback.screen_coverage, (RUNNER, "cot_pairs", "cot_screen")),
    Step("cot_random_redrawn", readback.random_redrawn, ("cot_pairs", "cot_continuations")),
    Step("cot_residual_sources", readback.residual_sources, (RUNNER, "cot_pairs")),
    # issue 49: §3 and §7 against their plain references (against_reference_patching.py)
    Step("cot_splice_reference", against_reference_patching.splice_reference,
         ("cot_model", "cot_sizes", "profile", "cot_usable", "cot_splice"),
         local_weights=NEEDS_LOCAL_WEIGHTS),
    Step("cot_mistake_reference", against_reference_patching.mistake_reference,
         ("cot_model", "cot_sizes", "profile", "cot_usable", "cot_single_mistake",
          "cot_rederivation", "cot_cues"), local_weights=NEEDS_LOCAL_WEIGHTS),
    Step("cot_patching_reference", against_reference_patching.patching_reference,
         ("cot_model", "cot_sizes", "cot_usable", "cot_pairs", "cot_screen", "cot_continuations"),
         local_weights=NEEDS_LOCAL_WEIGHTS),
    # issue 49: §1–§5's studies against their plain reference (reference_answers.py)
    *(Step(f"{study}_reference", check, (RUNNER, *inputs), local_weights=NEEDS_LOCAL_WEIGHTS)
      for study, check, inputs in (
          ("cot_baseline", answers.baseline, ("cot_baseline",)),
          ("cot_usable", answers.usable, ("cot_baseline", "cot_usable", "cot_first_trace")),
          ("cot_spanned", answers.spanned, ("cot_usable", "cot_spanned")),
          ("cot_restatements", answers.restatements, ("cot_usable", "cot_restatements")),
          ("cot_early", answers.early, ("cot_usable", "cot_early")),
          ("cot_last_answer", answers.last_answer, ("cot_usable", "cot_last_answer")),
          ("cot_full_corruption", answers.full_corruption, ("cot_usable", "cot_full_corruption")),
          ("cot_cut_probe", answers.cut_probe, ("cot_spanned", "cot_cut_probe")),
          ("cot_preference", answers.preference, ("cot_spanned", "cot_preference")))),
)
