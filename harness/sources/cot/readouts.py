"""What each of the cot claims judges, read from its experiments' results (claim bodies only
call these and judge)."""

from __future__ import annotations

from typing import Any, TypedDict

from harness.sources.cot import tokens
from harness.sources.cot.batched_rows import BatchedRows
from harness.sources.cot.chat import ThinkTemplate
from harness.sources.cot.decode import BumpAudit, NoopRuns, Specificity, StepShapes
from harness.sources.cot.forcing import ForcedPair
from harness.sources.cot.mistakes import CueCounts, Rederivation, SingleMistake, SpliceControl
from harness.sources.cot.patching import (ConditionRates, Continuations, LayerScreen, Pair,
                                          SelfPatch)
from harness.sources.cot.readback import Preference, Redrawn, ResidualSources, ScreenCoverage
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.step_rows import StepRows
from harness.sources.cot.task import PROBLEMS, donor_listing
from harness.sources.cot.traces import Baseline, EarlyAnswering, Restatements, Trace


class ProblemSet(TypedDict):
    """§1: the notebook's 20 problems, each [a, b, c]."""

    problems: list[list[int]]


def problem_set() -> ProblemSet:
    """§1: what cot.problem-set judges."""
    return {"problems": [list(p) for p in PROBLEMS]}


class DonorPairs(TypedDict):
    """§7: each paired problem's `recipient<-donor` label."""

    pairs: list[str]


def donor_pairs() -> DonorPairs:
    """§7: what cot.donor-pairs judges."""
    return {"pairs": donor_listing()}


class ThinkToken(TypedDict):
    """Setup: `</think>`'s ids, the generation prompt's tail and FORCE's length."""

    think_close: int
    close_ids: list[int]
    template_tail: str
    force_tokens: int


def think_token(template: ThinkTemplate) -> ThinkToken:
    """Setup: what cot.think-token judges."""
    return {"think_close": template.close_ids[0], "close_ids": template.close_ids,
            "template_tail": template.tail, "force_tokens": template.force_tokens}


class Step0IsPrefill(TypedDict):
    """§6: layers[0]'s output shape per step, and the shapes a prefill then single tokens give."""

    shapes: list[list[int]]
    prompt_len: int
    prefill_then_single: list[list[int]]


def step0_is_prefill(shapes: StepShapes) -> Step0IsPrefill:
    """§6: what cot.step0-is-prefill judges."""
    return {"shapes": shapes.shapes, "prompt_len": shapes.prompt_len,
            "prefill_then_single": shapes.prefill_then_single}


class NoopEveryStep(TypedDict):
    """§6: how many +0.0 runs are bit-identical, of how many, each run's steps, and the decode
    steps whose token is the reference's, of those either run decoded."""

    identical: int
    n: int
    steps: list[int]
    identical_steps: int
    checked_steps: int


def noop_every_step(noop: NoopRuns) -> NoopEveryStep:
    """§6: what cot.noop-every-step judges."""
    return {"identical": noop.identical, "n": len(noop.runs), "steps": noop.steps,
            "identical_steps": noop.identical_steps, "checked_steps": noop.checked_steps}


class FireOnceJudged(TypedDict):
    """§6: the steps the bump shows at, its size there, and whether tokens changed."""

    nonzero_steps: list[int]
    delta_at_step: float
    tokens_changed: bool


def fire_once(cot_fire_once: BumpAudit) -> FireOnceJudged:
    """§6: what cot.fire-once judges."""
    return {
        "nonzero_steps": cot_fire_once.nonzero_steps,
        "delta_at_step": cot_fire_once.delta_at_step,
        "tokens_changed": cot_fire_once.tokens_changed,
    }


class PostAnswerSpecificity(TypedDict):
    """§6: where each noised arm diverges from the baseline, and the answer after it."""

    answer_unchanged_after: bool
    diverges_after_answer: bool
    answer_done: int
    late_diverges_at: int | None
    tokens: int
    early_diverges_at: int | None
    early_answer: int | None


def post_answer_specificity(specificity: Specificity) -> PostAnswerSpecificity:
    """§6: what cot.post-answer-specificity judges."""
    return {
        "answer_unchanged_after": specificity.answer_unchanged_after,
        "diverges_after_answer": specificity.diverges_after_answer,
        "answer_done": specificity.answer_done,
        "late_diverges_at": specificity.late.diverges_at,
        "tokens": specificity.baseline_tokens,
        "early_diverges_at": specificity.early.diverges_at,
        "early_answer": specificity.early.answer,
    }


class RespliceLastControl(TypedDict):
    """§4: forced controls that are correct, of n."""

    control_correct: int
    n: int


def resplice_last_control(last_answer: ForcedPair) -> RespliceLastControl:
    """§4: what cot.resplice-last-control judges."""
    return {"control_correct": last_answer.control_correct, "n": last_answer.n}


class VerbatimBlockControl(TypedDict):
    """§4: forced controls that are correct, of n."""

    control_correct: int
    n: int


def verbatim_block_control(full_corruption: ForcedPair) -> VerbatimBlockControl:
    """§4: what cot.verbatim-block-control judges."""
    return {"control_correct": full_corruption.control_correct, "n": full_corruption.n}


class SelfPatchJudged(TypedDict):
    """§7: recipients that write their own product patched and unpatched, of n, at a layer."""

    reproduced: int
    unpatched: int
    n: int
    layer: int


def self_patch(cot_self_patch: SelfPatch) -> SelfPatchJudged:
    """§7: what cot.self-patch judges."""
    return {
        "reproduced": cot_self_patch.reproduced,
        "unpatched": cot_self_patch.unpatched,
        "n": cot_self_patch.n,
        "layer": cot_self_patch.layer,
    }


class RandomDirectionNull(ConditionRates):
    """§7: the random (matched norm) condition's rates, at the patched layer."""

    layer: int


def random_direction_null(continuations: Continuations) -> RandomDirectionNull:
    """§7: what cot.random-direction-null judges."""
    r = continuations.rates("random (matched norm)")
    return {**r, "layer": continuations.layer}


class BatchedRowsJudged(TypedDict):
    """§1: the rows read back, their tokens, and the rows misread."""

    rows: list[int]
    tokens: int
    misread_rows: int
    misread: list[str]


def batched_rows(rows: BatchedRows) -> BatchedRowsJudged:
    """§1: what cot.batched-rows judges."""
    return {"rows": rows.rows, "tokens": rows.tokens, "misread_rows": len(rows.misread),
            "misread": rows.misread}


class StepRowsJudged(TypedDict):
    """§2–§7: the rows of each batched step read back, their tokens and recorded answers
    checked, and what was misread."""

    steps: dict[str, list[int]]
    tokens: int
    answers: int
    checked: int
    misread_rows: int
    misread: list[str]


def step_rows(rows: StepRows) -> StepRowsJudged:
    """§2–§7: what each of cot's batched-step row anchors judges."""
    return {"steps": rows.steps, "tokens": rows.tokens, "answers": rows.answers,
            "checked": rows.tokens + rows.answers, "misread_rows": len(rows.misread),
            "misread": rows.misread}


class FullBlockAnswer(TypedDict):
    """§2: forced answers after the whole thinking block that are true, of n, and the others."""

    correct: int
    n: int
    wrong: list[str]


def full_block_answer(early: EarlyAnswering, usable: list[Trace]) -> FullBlockAnswer:
    """§2: what cot.full-block-answer judges: the answers forced at fraction 1.0, each against
    its trace's true answer."""
    at = early.fractions.index(1.0)
    wrong = [f"problem {t.idx}: {a[at]}, true {t.true}" for a, t in zip(early.answers, usable)
             if a[at] != t.true]
    return {"correct": len(early.answers) - len(wrong), "n": len(early.answers), "wrong": wrong}


class TrueProductPreferred(TypedDict):
    """§3: traces whose model prefers the true product at its first statement, of n."""

    n: int
    reversed: list[str]
    min_margin: float | None


def true_product_preferred(preference: Preference) -> TrueProductPreferred:
    """§3: what cot.true-product-preferred judges."""
    margins = [a - b for a, b in zip(preference.true, preference.injected)]
    return {"n": len(preference.problems), "reversed": preference.reversed,
            "min_margin": round(min(margins), 3) if margins else None}


class ScreenCoverageJudged(TypedDict):
    """§7: the screen's declared and covered layers, its pairs, and every gap."""

    declared: list[int]
    covered: list[int]
    pairs: int
    gaps: list[str]


def screen_coverage(coverage: ScreenCoverage) -> ScreenCoverageJudged:
    """§7: what cot.screen-coverage judges."""
    return {"declared": coverage.declared, "covered": coverage.covered,
            "pairs": coverage.pairs, "gaps": coverage.gaps}


class RandomControlRedrawn(TypedDict):
    """§7: the random controls re-drawn from their seeds, at a layer, and those that differ."""

    layer: int
    pairs: int
    mismatched: list[str]


def random_control_redrawn(redrawn: Redrawn) -> RandomControlRedrawn:
    """§7: what cot.random-control-redrawn judges."""
    return {"layer": redrawn.layer, "pairs": redrawn.pairs, "mismatched": redrawn.mismatched}


class ResidualSourcesRead(TypedDict):
    """§7: the pairs and layers whose residuals were re-read, and those that differ."""

    pairs: int
    layers: list[int]
    mismatched: list[str]


def residual_sources(found: ResidualSources) -> ResidualSourcesRead:
    """§7: what cot.residual-sources judges."""
    return {"pairs": found.pairs, "layers": found.layers, "mismatched": found.mismatched}


class BaselineAccuracy(TypedDict):
    """§1: correct traces of n, mean lengths, and how many are usable."""

    correct: int
    n: int
    mean_tokens: int
    mean_close: int | None
    usable: int


def baseline_accuracy(baseline: Baseline) -> BaselineAccuracy:
    """§1: what cot.baseline-accuracy judges."""
    return {
        "correct": baseline.correct,
        "n": baseline.n,
        "mean_tokens": round(baseline.mean_tokens),
        "mean_close": None if baseline.mean_close is None else round(baseline.mean_close),
        "usable": len(baseline.usable),
    }


class RestatementsJudged(TypedDict):
    """§1: mean restatements of the product and answer, inside and after <think>."""

    product_in_think: float
    answer_in_think: float
    answer_after: float
    n: int


def restatements(cot_restatements: Restatements) -> RestatementsJudged:
    """§1: what cot.restatements judges."""
    return {
        "product_in_think": cot_restatements.mean(cot_restatements.product_in_think),
        "answer_in_think": cot_restatements.mean(cot_restatements.answer_in_think),
        "answer_after": cot_restatements.mean(cot_restatements.answer_after),
        "n": len(cot_restatements.product_in_think),
    }


class EarlyAnsweringJudged(TypedDict):
    """§2: the fractions kept, the rate correct at each, and answers the CoT changed."""

    fractions: list[float]
    correct_rate: list[float]
    changed_by_cot: int
    n: int


def early_answering(early: EarlyAnswering) -> EarlyAnsweringJudged:
    """§2: what cot.early-answering judges."""
    return {
        "fractions": list(early.fractions),
        "correct_rate": early.correct_rate,
        "changed_by_cot": early.changed_by_cot,
        "n": early.n,
    }


class SpliceTrueValue(TypedDict):
    """§3: re-spliced true products whose continuation is exact, of n."""

    exact: int
    n: int


def splice_true_value(splice: SpliceControl) -> SpliceTrueValue:
    """§3: what cot.splice-true-value judges."""
    return {"exact": splice.exact, "n": len(splice.identical)}


class SingleMistakeJudged(TypedDict):
    """§3: injected continuations that recover, follow the mistake, or neither."""

    recovered: int
    faithful: int
    neither: int
    n: int
    faithful_problems: list[int]
    answers: list[int | None]


def single_mistake(cot_single_mistake: SingleMistake) -> SingleMistakeJudged:
    """§3: what cot.single-mistake judges."""
    return {
        "recovered": cot_single_mistake.recovered,
        "faithful": cot_single_mistake.faithful,
        "neither": cot_single_mistake.neither,
        "n": cot_single_mistake.n,
        "faithful_problems": cot_single_mistake.faithful_problems,
        "answers": cot_single_mistake.answers,
    }


class RederivationJudged(TypedDict):
    """§3: how often each continuation states the true versus the injected product."""

    true_at_all: int
    true_more: int
    median_true: float
    median_injected: float
    n: int
    says_true: list[int]
    says_injected: list[int]


def rederivation(cot_rederivation: Rederivation) -> RederivationJudged:
    """§3: what cot.rederivation judges."""
    return {
        "true_at_all": cot_rederivation.true_at_all,
        "true_more": cot_rederivation.true_more,
        "median_true": cot_rederivation.median_true,
        "median_injected": cot_rederivation.median_injected,
        "n": len(cot_rederivation.says_true),
        "says_true": cot_rederivation.says_true,
        "says_injected": cot_rederivation.says_injected,
    }


class CueCountingUninformative(TypedDict):
    """§3: continuations with a self-correction cue, injected against baseline."""

    injected: int
    baseline_window: int
    n: int


def cue_counting_uninformative(cues: CueCounts) -> CueCountingUninformative:
    """§3: what cot.cue-counting-uninformative judges."""
    return {"injected": cues.injected, "baseline_window": cues.baseline_window, "n": cues.n}


class LastAnswerCorruption(TypedDict):
    """§4: forced answers after the last answer is corrupted, scored."""

    recovered: int
    faithful: int
    n: int
    answers: list[int | None]


def last_answer_corruption(last_answer: ForcedPair) -> LastAnswerCorruption:
    """§4: what cot.last-answer-corruption judges."""
    return {
        "recovered": last_answer.recovered,
        "faithful": last_answer.faithful,
        "n": last_answer.n,
        "answers": last_answer.corrupted,
    }


class FullCorruption(TypedDict):
    """§4: forced answers after the whole block is corrupted, scored."""

    recovered: int
    faithful: int
    n: int
    answers: list[int | None]


def full_corruption(cot_full_corruption: ForcedPair) -> FullCorruption:
    """§4: what cot.full-corruption judges."""
    return {
        "recovered": cot_full_corruption.recovered,
        "faithful": cot_full_corruption.faithful,
        "n": cot_full_corruption.n,
        "answers": cot_full_corruption.corrupted,
    }


class CutProbeControl(TypedDict):
    """§5: forced answers right after a spliced product, control and corrupted."""

    control_correct: int
    n: int
    control_first8: list[int | None]
    recovered: int
    faithful: int


def cut_probe_control(cut_probe: ForcedPair) -> CutProbeControl:
    """§5: what cot.cut-probe-control judges."""
    return {
        "control_correct": cut_probe.control_correct,
        "n": cut_probe.n,
        "control_first8": cut_probe.control[:8],
        "recovered": cut_probe.recovered,
        "faithful": cut_probe.faithful,
    }


class ProductLayerScreen(TypedDict):
    """§7: each screened layer's donor and changed rates, and the best layer."""

    layers: list[int]
    donor_rate: list[float]
    changed_rate: list[float]
    best_layer: int
    tied_for_best: list[int]
    best_writes: list[int | None]
    n: int
    n_layers: int


def product_layer_screen(
    screen: LayerScreen, pairs: list[Pair], runner: CotRunner
) -> ProductLayerScreen:
    """§7: what cot.product-layer-screen judges."""
    return {
        "layers": list(screen.layers),
        "donor_rate": screen.donor_rate,
        "changed_rate": screen.changed_rate,
        "best_layer": screen.best_layer,
        "tied_for_best": list(screen.tied_for_best),
        "best_writes": screen.best_writes,
        "n": len(pairs),
        "n_layers": runner.model.hf.config.num_hidden_layers,
    }


class ActivationPatchNotPropagated(ConditionRates):
    """§7: the donor patch's rates, the unpatched donor-product floor and the layer."""

    donor_product_floor: float
    layer: int


def activation_patch_not_propagated(continuations: Continuations) -> ActivationPatchNotPropagated:
    """§7: what cot.activation-patch-not-propagated judges."""
    donor = continuations.rates("donor patch")
    floor = continuations.rates("no patch")["donor_product"]
    return {**donor, "donor_product_floor": floor, "layer": continuations.layer}


class PromptTokens(TypedDict):
    """§1: problem 0's prompt, its length, and prompts that fail to render as printed."""

    first: str
    first_tokens: int
    n: int
    failing: list[str]


def prompt_tokens(tokenizer: Any) -> PromptTokens:
    """§1: what cot.prompt-tokens judges."""
    r = tokens.prompt_tokens(tokenizer)
    return {"first": r.first, "first_tokens": r.first_tokens, "n": r.n, "failing": r.failing}


class ForcedSuffix(TypedDict):
    """§1: FORCE's `</think>` ids and length, its round trip, and answers that split."""

    think_close: list[int]
    force_tokens: int
    round_trip: bool
    answers: int
    failing: list[str]


def forced_suffix(tokenizer: Any) -> ForcedSuffix:
    """§1: what cot.forced-suffix judges."""
    r = tokens.forced_suffix(tokenizer)
    return {
        "think_close": r.think_close,
        "force_tokens": r.force_tokens,
        "round_trip": r.round_trip,
        "answers": r.answers,
        "failing": r.failing,
    }


class NumberTokens(TypedDict):
    """§3: the first product's tokens, the values checked and those that split."""

    first_product: list[str]
    values: int
    failing: list[str]


def number_tokens(tokenizer: Any) -> NumberTokens:
    """§3: what cot.number-tokens judges."""
    r = tokens.number_tokens(tokenizer)
    return {"first_product": r.first_product, "values": r.values, "failing": r.failing}
