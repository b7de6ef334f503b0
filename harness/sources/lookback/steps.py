"""Seed 003's experiment steps, declared once: each sample set built and error-filtered, each sweep
run on the kept rows, and each sweep read back."""
from __future__ import annotations

from typing import Callable

from harness import interventions
from harness.declared_steps import Filtered, Step
from harness.profiles import Profile
from harness.reference import NEEDS_LOCAL_WEIGHTS as PLAIN_FORWARDS
from harness.sources.lookback import (against_reference, against_reference_low_rank,
                                      against_reference_swaps, low_rank_readback,
                                      predict_readback, readback)
from harness.sources.lookback.answers import answer_sweep
from harness.sources.lookback.behaviour import (Behaviour, FilterAnswers, VisibilityScores,
                                                behaviour, filter_answers, keep_correct,
                                                visibility)
from harness.sources.lookback.fire_once import (answer_patch, binding_patch, binding_patches,
                                                low_rank_patch, source_patch)
from harness.sources.lookback.identity import self_patch
from harness.sources.lookback.interchange import SourceSweep, Sweep, binding_sweep, source_sweep
from harness.sources.lookback.low_rank import LowRank, low_rank
from harness.sources.lookback.positions import (intervention_tokens, prompt_alignment,
                                                single_token_entities)
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.sizes import LookbackSizes
from harness.sources.lookback.task import (EVAL_CONDITIONS, INSTRUCTION, Counterfactual, EvalRow,
                                           VisibilityRow, build_answer, build_binding, build_eval,
                                           build_source, build_visibility)

Rows = list[Counterfactual]


def sizes(profile: Profile, batched: bool) -> LookbackSizes:
    """This profile's sizes for seed 003, every batch at `fast_batch` in fast mode."""
    return profile.sizes["lookback"].as_batched(batched)


def instruction(at: LookbackSizes) -> str:
    """The instruction this profile's prompts carry (the organism's prompts drop it)."""
    return INSTRUCTION if at.with_instruction else ""


def rows(build: Callable[..., Rows]) -> Callable[[str, LookbackSizes], Rows]:
    """The first rows of the sample set `build` makes, with this profile's instruction."""
    def first(said: str, at: LookbackSizes) -> Rows:
        return at.first(build(instruction=said))
    first.__doc__ = build.__doc__
    return first


def eval_rows(said: str, at: LookbackSizes) -> dict[str, list[EvalRow]]:
    """§2: the evaluation sample set, built for belief, reality and explicit 'cannot observe'."""
    return {name: at.first(build_eval(instruction=said, **kw))
            for name, kw in EVAL_CONDITIONS.items()}


def visibility_rows(said: str, at: LookbackSizes) -> list[VisibilityRow]:
    """§2: the visibility sample set."""
    return at.first(build_visibility(instruction=said))


def eval_behaviour(run: LookbackRunner, said: str, at: LookbackSizes) -> dict[str, Behaviour]:
    """§2: belief, reality and explicit 'cannot observe', each on the evaluation sample set."""
    return {name: behaviour(run, rows) for name, rows in eval_rows(said, at).items()}


def eval_visibility(run: LookbackRunner, said: str, at: LookbackSizes) -> VisibilityScores:
    """§3: the visibility sample set's scores."""
    return visibility(run, visibility_rows(said, at))


def predicted_readback(run: LookbackRunner, said: str, at: LookbackSizes,
                       scored: dict[str, Behaviour], seen: VisibilityScores) -> readback.Readback:
    """§2's batched predictions read back: their rates recounted, a few rows re-run alone."""
    found = readback.Readback([], [])
    for name, rows in eval_rows(said, at).items():
        predict_readback.evaluation(run, found, name, rows, scored[name])
    predict_readback.visibility(run, found, visibility_rows(said, at), seen)
    return found


def filter_readback(run: LookbackRunner,
                    binding_rows: Rows, binding_answers: FilterAnswers, binding_kept: Rows,
                    source_rows: Rows, source_answers: FilterAnswers, source_kept: Rows,
                    answer_rows: Rows, answer_answers: FilterAnswers,
                    answer_kept: Rows) -> readback.Readback:
    """§4–§6's error filters read back: each set's batched predictions, a few rows re-run alone,
    and its kept rows recounted from the recorded answers."""
    found = readback.Readback([], [])
    for what, rows, answers, kept in (("binding", binding_rows, binding_answers, binding_kept),
                                      ("source", source_rows, source_answers, source_kept),
                                      ("answer", answer_rows, answer_answers, answer_kept)):
        predict_readback.error_filter(run, found, what, rows, answers, kept)
    return found


def kept_or_forced(what: str) -> Callable[[Rows, Rows], Filtered]:
    """The `what` samples the error filter kept, which every `what` sweep patches."""
    def patched(kept: Rows, offered: Rows) -> Filtered:
        return Filtered(kept, offered,
                        f"no {what} sample survives error filtering (the model answers none of "
                        f"them correctly on both prompts): nothing to patch")
    patched.__doc__ = f"§4–§7: the kept {what} samples, which every {what} sweep patches."
    return patched


def binding(layout: str) -> Callable[[LookbackRunner, Rows], Sweep]:
    """§4: the binding swap swept under `layout`."""
    def sweep(run: LookbackRunner, patched: Rows) -> Sweep:
        return binding_sweep(run, patched, layout)
    sweep.__doc__ = f"§4: the binding swap swept, {layout}."
    return sweep


def source_swept(freeze: bool) -> Callable[[LookbackRunner, Rows, LookbackSizes], SourceSweep]:
    """§5: the source swap swept, with or without the freeze, over its declared layers."""
    def sweep(run: LookbackRunner, patched: Rows, at: LookbackSizes) -> SourceSweep:
        layers = at.source_freeze_layers if freeze else at.source_plain_layers
        return source_sweep(run, patched, layers, freeze=freeze)
    sweep.__doc__ = f"§5: the source swap swept, {'with' if freeze else 'without'} the freeze."
    return sweep


def binding_readback(run: LookbackRunner, patched: Rows, reversed_: Sweep, same: Sweep,
                     opaque: Sweep) -> readback.Readback:
    """§4's three sweeps read back: their coverage, and a few of their rows re-run one at a time
    (in the session's mode)."""
    return readback.binding(run, patched, {"reversed": reversed_, "same position": same,
                                           "opaque control": opaque})


def source_readback(run: LookbackRunner, patched: Rows, freeze: SourceSweep,
                    plain: SourceSweep) -> readback.Readback:
    """§5's two sweeps read back: their coverage, and a few of their rows re-run one at a time."""
    return readback.source(run, patched, {"freeze": freeze, "no freeze": plain})


def low_rank_at_peak(run: LookbackRunner, patched: Rows, reversed_: Sweep) -> LowRank:
    """§7 at the reversed curve's peak layer."""
    return low_rank(run, patched, reversed_.peak_layer)


RUN = "lookback_runner"
SAID = ("lookback_instruction", "lookback_sizes")
BINDING = (RUN, "lookback_patched")
SOURCE = (RUN, "lookback_source_patched")

FILTERS = {"binding": ("lookback_binding_rows", "lookback_binding_filter", "lookback_kept"),
           "source": ("lookback_source_rows", "lookback_source_filter", "lookback_source_kept"),
           "answer": ("lookback_answer_rows", "lookback_answer_filter", "lookback_answer_kept")}
SWEPT = {"reversed": "lookback_reversed", "same position": "lookback_same_position",
         "opaque control": "lookback_opaque"}
REFERENCES = (
    Step("lookback_behaviour_reference", against_reference.behaviour,
         (RUN, *SAID, "lookback_behaviour"), local_weights=PLAIN_FORWARDS),
    Step("lookback_visibility_reference", against_reference.visibility,
         (RUN, *SAID, "lookback_visibility"), local_weights=PLAIN_FORWARDS),
    *(Step(f"lookback_{what}_filter_reference", against_reference.error_filter(what),
           (RUN, *SAID, *inputs), local_weights=PLAIN_FORWARDS)
      for what, inputs in FILTERS.items()),
    *(Step(f"{step}_reference", against_reference.binding(name),
           (RUN, *SAID, "lookback_patched", step), local_weights=PLAIN_FORWARDS)
      for name, step in SWEPT.items()),
    *(Step(f"{step}_reference", against_reference_swaps.source(freeze),
           (RUN, *SAID, "lookback_source_patched", step), local_weights=PLAIN_FORWARDS)
      for freeze, step in ((True, "lookback_source_freeze"), (False, "lookback_source_plain"))),
    Step("lookback_answer_reference", against_reference_swaps.answer,
         (RUN, *SAID, "lookback_answer_patched", "lookback_answer"), local_weights=PLAIN_FORWARDS),
    Step("lookback_low_rank_reference", against_reference_low_rank.low_rank,
         (RUN, *SAID, "lookback_patched", "lookback_reversed", "lookback_low_rank"),
         local_weights=PLAIN_FORWARDS),
)

STEPS = (
    Step("lookback_sizes", sizes, ("profile",), batched=True,
         unguarded="the profile's declared sizes, batched in fast mode: data"),
    Step("lookback_instruction", instruction, ("lookback_sizes",),
         unguarded="the instruction text the profile's prompts carry: data"),
    Step("lookback_single_tokens", single_token_entities, ("lookback_tokenizer",)),
    Step("lookback_alignment", prompt_alignment, ("lookback_tokenizer", "lookback_instruction")),
    Step("lookback_intervention_tokens", intervention_tokens,
         ("lookback_tokenizer", "lookback_instruction")),
    Step(RUN, LookbackRunner, ("lookback_model", "lookback_sizes"),
         unguarded="the model and its sizes, held for the steps that run it (each guarded): no "
                   "forward of its own"),
    Step("lookback_behaviour", eval_behaviour, (RUN, *SAID)),
    Step("lookback_visibility", eval_visibility, (RUN, *SAID)),
    # §4 binding, §5 source and §6 answer samples: built, error-filtered, then patched.
    Step("lookback_binding_rows", rows(build_binding), SAID),
    Step("lookback_binding_filter", filter_answers, (RUN, "lookback_binding_rows"), shared=True),
    Step("lookback_kept", keep_correct, ("lookback_binding_rows", "lookback_binding_filter"),
         shared=True),
    Step("lookback_patched", kept_or_forced("binding"),
         ("lookback_kept", "lookback_binding_rows"), forced=True),
    Step("lookback_source_rows", rows(build_source), SAID),
    Step("lookback_source_filter", filter_answers, (RUN, "lookback_source_rows"), shared=True),
    Step("lookback_source_kept", keep_correct, ("lookback_source_rows", "lookback_source_filter"),
         shared=True),
    Step("lookback_source_patched", kept_or_forced("source"),
         ("lookback_source_kept", "lookback_source_rows"), forced=True),
    Step("lookback_answer_rows", rows(build_answer), SAID),
    Step("lookback_answer_filter", filter_answers, (RUN, "lookback_answer_rows"), shared=True),
    Step("lookback_answer_kept", keep_correct, ("lookback_answer_rows", "lookback_answer_filter"),
         shared=True),
    Step("lookback_answer_patched", kept_or_forced("answer"),
         ("lookback_answer_kept", "lookback_answer_rows"), forced=True),
    Step("lookback_self_patch", self_patch, (RUN, "lookback_kept", "lookback_binding_rows")),
    # §4's sweeps, §5's swap and freeze, §6's answer patch and §7's projected swap declared
    # (harness.interventions).
    *interventions.steps("lookback_interchange", binding_patches, (RUN, "lookback_binding_rows"),
                         ("fires",)),
    *interventions.steps("lookback_source_swap", source_patch, (RUN, "lookback_source_rows"),
                         ("fires",), given=(False,)),
    *interventions.steps("lookback_freeze", source_patch, (RUN, "lookback_source_rows"),
                         ("fires",), given=(True,)),
    *interventions.steps("lookback_same_position", binding_patch, (RUN, "lookback_binding_rows"),
                         ("identity", "rows_alone"), given=("same position",)),
    *interventions.steps("lookback_answer", answer_patch, (RUN, "lookback_answer_rows"),
                         ("fires", "identity")),
    *interventions.steps("lookback_low_rank", low_rank_patch, (RUN, "lookback_binding_rows"),
                         ("fires",)),
    Step("lookback_reversed", binding("reversed"), BINDING, unit=True),
    Step("lookback_same_position", binding("same position"), BINDING, unit=True),
    Step("lookback_opaque", binding("opaque control"), BINDING, unit=True),
    Step("lookback_source_freeze", source_swept(True), (*SOURCE, "lookback_sizes"), unit=True),
    Step("lookback_source_plain", source_swept(False), (*SOURCE, "lookback_sizes"), unit=True),
    Step("lookback_answer", answer_sweep, (RUN, "lookback_answer_patched"), unit=True),
    Step("lookback_binding_readback", binding_readback,
         (*BINDING, "lookback_reversed", "lookback_same_position", "lookback_opaque")),
    Step("lookback_source_readback", source_readback,
         (*SOURCE, "lookback_source_freeze", "lookback_source_plain")),
    Step("lookback_answer_readback", readback.answer,
         (RUN, "lookback_answer_patched", "lookback_answer")),
    Step("lookback_low_rank", low_rank_at_peak, (*BINDING, "lookback_reversed"), unit=True),
    Step("lookback_predict_readback", predicted_readback,
         (RUN, *SAID, "lookback_behaviour", "lookback_visibility")),
    Step("lookback_filter_readback", filter_readback,
         (RUN, "lookback_binding_rows", "lookback_binding_filter", "lookback_kept",
          "lookback_source_rows", "lookback_source_filter", "lookback_source_kept",
          "lookback_answer_rows", "lookback_answer_filter", "lookback_answer_kept")),
    Step("lookback_low_rank_readback", low_rank_readback.low_rank, (*BINDING, "lookback_low_rank")),
    # Issue 49: each study's recorded values on a few rows against the plain reference.
    *REFERENCES,
)
