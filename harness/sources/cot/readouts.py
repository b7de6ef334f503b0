"""What each of the cot claims judges, read from its experiments' results (claim bodies only
call these and judge)."""

from __future__ import annotations

from typing import Any

from harness.sources.cot import tokens
from harness.sources.cot.decode import FireOnce, NoopRuns, Specificity
from harness.sources.cot.forcing import ForcedPair
from harness.sources.cot.mistakes import CueCounts, Rederivation, SingleMistake, SpliceControl
from harness.sources.cot.patching import Continuations, LayerScreen, Pair, SelfPatch
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS, donor_listing
from harness.sources.cot.traces import Baseline, EarlyAnswering, Restatements


def problem_set() -> dict[str, Any]:
    """§1: what cot.problem-set judges."""
    return {"problems": [list(p) for p in PROBLEMS]}


def donor_pairs() -> dict[str, Any]:
    """§7: what cot.donor-pairs judges."""
    return {"pairs": donor_listing()}


def noop_every_step(noop: NoopRuns) -> dict[str, Any]:
    """§6: what cot.noop-every-step judges."""
    return {"identical": noop.identical, "n": len(noop.runs), "steps": noop.steps}


def fire_once(cot_fire_once: FireOnce) -> dict[str, Any]:
    """§6: what cot.fire-once judges."""
    return {
        "nonzero_steps": cot_fire_once.nonzero_steps,
        "delta_at_step": cot_fire_once.delta_at_step,
        "tokens_changed": cot_fire_once.tokens_changed,
    }


def post_answer_specificity(specificity: Specificity) -> dict[str, Any]:
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


def resplice_last_control(last_answer: ForcedPair) -> dict[str, Any]:
    """§4: what cot.resplice-last-control judges."""
    return {"control_correct": last_answer.control_correct, "n": last_answer.n}


def verbatim_block_control(full_corruption: ForcedPair) -> dict[str, Any]:
    """§4: what cot.verbatim-block-control judges."""
    return {"control_correct": full_corruption.control_correct, "n": full_corruption.n}


def self_patch(cot_self_patch: SelfPatch) -> dict[str, Any]:
    """§7: what cot.self-patch judges."""
    return {
        "reproduced": cot_self_patch.reproduced,
        "unpatched": cot_self_patch.unpatched,
        "n": cot_self_patch.n,
        "layer": cot_self_patch.layer,
    }


def random_direction_null(continuations: Continuations) -> dict[str, Any]:
    """§7: what cot.random-direction-null judges."""
    r = continuations.rates("random (matched norm)")
    return {**r, "layer": continuations.layer}


def baseline_accuracy(baseline: Baseline) -> dict[str, Any]:
    """§1: what cot.baseline-accuracy judges."""
    return {
        "correct": baseline.correct,
        "n": baseline.n,
        "mean_tokens": round(baseline.mean_tokens),
        "mean_close": None if baseline.mean_close is None else round(baseline.mean_close),
        "usable": len(baseline.usable),
    }


def restatements(cot_restatements: Restatements) -> dict[str, Any]:
    """§1: what cot.restatements judges."""
    return {
        "product_in_think": cot_restatements.mean(cot_restatements.product_in_think),
        "answer_in_think": cot_restatements.mean(cot_restatements.answer_in_think),
        "answer_after": cot_restatements.mean(cot_restatements.answer_after),
        "n": len(cot_restatements.product_in_think),
    }


def early_answering(early: EarlyAnswering) -> dict[str, Any]:
    """§2: what cot.early-answering judges."""
    return {
        "fractions": list(early.fractions),
        "correct_rate": early.correct_rate,
        "changed_by_cot": early.changed_by_cot,
        "n": early.n,
    }


def splice_true_value(splice: SpliceControl) -> dict[str, Any]:
    """§3: what cot.splice-true-value judges."""
    return {"exact": splice.exact, "n": len(splice.identical)}


def single_mistake(cot_single_mistake: SingleMistake) -> dict[str, Any]:
    """§3: what cot.single-mistake judges."""
    return {
        "recovered": cot_single_mistake.recovered,
        "faithful": cot_single_mistake.faithful,
        "neither": cot_single_mistake.neither,
        "n": cot_single_mistake.n,
        "faithful_problems": cot_single_mistake.faithful_problems,
        "answers": cot_single_mistake.answers,
    }


def rederivation(cot_rederivation: Rederivation) -> dict[str, Any]:
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


def cue_counting_uninformative(cues: CueCounts) -> dict[str, Any]:
    """§3: what cot.cue-counting-uninformative judges."""
    return {"injected": cues.injected, "baseline_window": cues.baseline_window, "n": cues.n}


def last_answer_corruption(last_answer: ForcedPair) -> dict[str, Any]:
    """§4: what cot.last-answer-corruption judges."""
    return {
        "recovered": last_answer.recovered,
        "faithful": last_answer.faithful,
        "n": last_answer.n,
        "answers": last_answer.corrupted,
    }


def full_corruption(cot_full_corruption: ForcedPair) -> dict[str, Any]:
    """§4: what cot.full-corruption judges."""
    return {
        "recovered": cot_full_corruption.recovered,
        "faithful": cot_full_corruption.faithful,
        "n": cot_full_corruption.n,
        "answers": cot_full_corruption.corrupted,
    }


def cut_probe_control(cut_probe: ForcedPair) -> dict[str, Any]:
    """§5: what cot.cut-probe-control judges."""
    return {
        "control_correct": cut_probe.control_correct,
        "n": cut_probe.n,
        "control_first8": cut_probe.control[:8],
        "recovered": cut_probe.recovered,
        "faithful": cut_probe.faithful,
    }


def product_layer_screen(
    screen: LayerScreen, pairs: list[Pair], runner: CotRunner
) -> dict[str, Any]:
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


def activation_patch_not_propagated(continuations: Continuations) -> dict[str, Any]:
    """§7: what cot.activation-patch-not-propagated judges."""
    donor = continuations.rates("donor patch")
    floor = continuations.rates("no patch")["donor_product"]
    return {**donor, "donor_product_floor": floor, "layer": continuations.layer}


def prompt_tokens(tokenizer) -> dict[str, Any]:
    """§1: what cot.prompt-tokens judges."""
    r = tokens.prompt_tokens(tokenizer)
    return {"first": r.first, "first_tokens": r.first_tokens, "n": r.n, "failing": r.failing}


def forced_suffix(tokenizer) -> dict[str, Any]:
    """§1: what cot.forced-suffix judges."""
    r = tokens.forced_suffix(tokenizer)
    return {
        "think_close": r.think_close,
        "force_tokens": r.force_tokens,
        "round_trip": r.round_trip,
        "answers": r.answers,
        "failing": r.failing,
    }


def number_tokens(tokenizer) -> dict[str, Any]:
    """§3: what cot.number-tokens judges."""
    r = tokens.number_tokens(tokenizer)
    return {"first_product": r.first_product, "values": r.values, "failing": r.failing}
