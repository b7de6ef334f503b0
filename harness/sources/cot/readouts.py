"""The dicts cot's claims judge, read from its experiments' results: each claim's declaration
names its readout (harness.claim_tests)."""

from __future__ import annotations

from typing import Any

from harness.sources.cot.batched_rows import BatchedRows
from harness.sources.cot.chat import ThinkTemplate
from harness.sources.cot.decode import NoopRuns
from harness.sources.cot.forcing import ForcedPair
from harness.sources.cot.mistakes import Rederivation, SpliceControl
from harness.sources.cot.continuations import Continuations
from harness.sources.cot.patching import LayerScreen, Pair
from harness.sources.cot.readback import Preference
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.step_rows import StepRows
from harness.sources.cot.task import PROBLEMS, donor_listing
from harness.sources.cot.traces import Baseline, EarlyAnswering, Restatements, Trace


def problem_set() -> dict[str, Any]:
    """§1: the notebook's 20 problems, each [a, b, c]."""
    return {"problems": [list(p) for p in PROBLEMS]}


def donor_pairs() -> dict[str, Any]:
    """§7: each paired problem's `recipient<-donor` label."""
    return {"pairs": donor_listing()}


def think_token(template: ThinkTemplate) -> dict[str, Any]:
    """Setup: `</think>`'s ids, the generation prompt's tail and FORCE's length."""
    return {"think_close": template.close_ids[0], "close_ids": template.close_ids,
            "template_tail": template.tail, "force_tokens": template.force_tokens}


def noop_every_step(noop: NoopRuns) -> dict[str, Any]:
    """§6: how many +0.0 runs are bit-identical, of how many, each run's steps, and the decode
    steps whose token is the reference's, of those either run decoded."""
    return {"identical": noop.identical, "n": len(noop.runs), "steps": noop.steps,
            "identical_steps": noop.identical_steps, "checked_steps": noop.checked_steps}


def random_direction_null(continuations: Continuations) -> dict[str, Any]:
    """§7: the random (matched norm) condition's rates, at the patched layer."""
    return {**continuations.rates("random (matched norm)"), "layer": continuations.layer}


def batched_rows(rows: BatchedRows) -> dict[str, Any]:
    """§1: the rows read back, their tokens, and the rows misread."""
    return {"rows": rows.rows, "tokens": rows.tokens, "misread_rows": len(rows.misread),
            "misread": rows.misread}


def step_rows(rows: StepRows) -> dict[str, Any]:
    """§2–§7: a batched step's rows re-run alone: its steps, the tokens and answers checked, and
    the rows misread."""
    return {"steps": rows.steps, "tokens": rows.tokens, "answers": rows.answers,
            "checked": rows.tokens + rows.answers, "misread_rows": len(rows.misread),
            "misread": rows.misread}


def full_block_answer(early: EarlyAnswering, usable: list[Trace]) -> dict[str, Any]:
    """§2: the answers forced at fraction 1.0 that are their trace's true answer, of n, and
    each that is not."""
    at = early.fractions.index(1.0)
    wrong = [f"problem {t.idx}: {a[at]}, true {t.true}" for a, t in zip(early.answers, usable)
             if a[at] != t.true]
    return {"correct": len(early.answers) - len(wrong), "n": len(early.answers), "wrong": wrong}


def true_product_preferred(preference: Preference) -> dict[str, Any]:
    """§3: traces whose model prefers the true product at its first statement, of n."""
    margins = [a - b for a, b in zip(preference.true, preference.injected)]
    return {"n": len(preference.problems), "reversed": preference.reversed,
            "min_margin": round(min(margins), 3) if margins else None}


def baseline_accuracy(baseline: Baseline) -> dict[str, Any]:
    """§1: correct traces of n, mean lengths, and how many are usable."""
    return {
        "correct": baseline.correct,
        "n": baseline.n,
        "mean_tokens": round(baseline.mean_tokens),
        "mean_close": None if baseline.mean_close is None else round(baseline.mean_close),
        "usable": len(baseline.usable),
    }


def restatements(cot_restatements: Restatements) -> dict[str, Any]:
    """§1: mean restatements of the product and answer, inside and after <think>."""
    return {
        "product_in_think": cot_restatements.mean(cot_restatements.product_in_think),
        "answer_in_think": cot_restatements.mean(cot_restatements.answer_in_think),
        "answer_after": cot_restatements.mean(cot_restatements.answer_after),
        "n": len(cot_restatements.product_in_think),
    }


def splice_true_value(splice: SpliceControl) -> dict[str, Any]:
    """§3: re-spliced true products whose continuation is exact, of n."""
    return {"exact": splice.exact, "n": len(splice.identical)}


def rederivation(cot_rederivation: Rederivation) -> dict[str, Any]:
    """§3: how often each continuation states the true versus the injected product."""
    return {
        "true_at_all": cot_rederivation.true_at_all,
        "true_more": cot_rederivation.true_more,
        "median_true": cot_rederivation.median_true,
        "median_injected": cot_rederivation.median_injected,
        "n": len(cot_rederivation.says_true),
        "says_true": cot_rederivation.says_true,
        "says_injected": cot_rederivation.says_injected,
    }


def cut_probe_control(cut_probe: ForcedPair) -> dict[str, Any]:
    """§5: forced answers right after a spliced product, control and corrupted."""
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
    """§7: each screened layer's donor and changed rates, and the best layer."""
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
    """§7: the donor patch's rates, the unpatched run's donor-product rate as the floor, and the
    patched layer."""
    return {**continuations.rates("donor patch"),
            "donor_product_floor": continuations.rates("no patch")["donor_product"],
            "layer": continuations.layer}
