"""Seed 003's reference anchors as the breakage catalogue runs them (issue 49): each study run
through its own step function on the first rows of its seeded set (the sweeps the readback checks
ran on them, every row of the binding set for its error filter, so a set one short shows; enough
rows for §7 that its held-in half fills rank 64, where the organism's random controls differ by
seed), then compared with the plain reference as its anchor compares it; §7's first, as it is
the costliest to reach and catches most."""
from __future__ import annotations

from dataclasses import replace

from harness.catalogue import Checks
from harness.reference import failures
from harness.sources.lookback import (against_reference, against_reference_low_rank,
                                      against_reference_swaps)
from typing import Callable

from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.behaviour import filter_answers, keep_correct
from harness.sources.lookback.interchange import SourceSweep, Sweep
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import build_answer, build_binding, build_source

ROWS = 8  # the first rows of each set the checks run on
# §7's: a held-in half of 16 rows fills rank 64, where the organism's random controls answer by
# their seed; the first rank shows the fitted basis's own direction.
LOW_RANK_ROWS, LOW_RANK_RANKS = 32, (1, 64)


def checks(runner: LookbackRunner, binding: Callable[[str], Sweep],
           source: Callable[[], dict[str, SourceSweep]],
           answer: Callable[[], AnswerSweep]) -> Checks:
    """Every lookback reference anchor's check, by anchor id, on `runner` (its sizes' batches),
    the sweeps given (§4's three, each by name as a check reads it; §5's "freeze" and "no
    freeze"; §6's) on the first ROWS rows of their sets."""
    from harness.sources.lookback import steps

    said, whole = runner.instruction, runner.sizes
    few = replace(whole, sample_cap=ROWS)
    sets = {"binding": build_binding, "source": build_source, "answer": build_answer}
    rows = {what: build(instruction=said)[:ROWS] for what, build in sets.items()}

    def filtered(what: str, at) -> list[str]:
        offered = steps.rows(sets[what])(said, at)
        answers = filter_answers(runner, offered)
        return failures(against_reference.error_filter(what)(
            runner, said, at, offered, answers, keep_correct(offered, answers)))

    def low_rank() -> list[str]:
        many = replace(whole, sample_cap=LOW_RANK_ROWS, low_rank_ranks=LOW_RANK_RANKS)
        ranked = LookbackRunner(runner.model, replace(runner.sizes, low_rank_ranks=LOW_RANK_RANKS))
        patched = build_binding(instruction=said)[:LOW_RANK_ROWS]
        reversed_ = binding("reversed")  # §7 reads its curve's peak alone
        study = steps.low_rank_at_peak(ranked, patched, reversed_)
        return failures(against_reference_low_rank.low_rank(ranked, said, many, patched,
                                                            reversed_, study))

    def swept(name: str) -> list[str]:
        return failures(against_reference.binding(name)(runner, said, few, rows["binding"],
                                                        binding(name)))

    def sourced(freeze: bool) -> list[str]:
        sweep = source()["freeze" if freeze else "no freeze"]
        return failures(against_reference_swaps.source(freeze)(runner, said, few, rows["source"],
                                                               sweep))

    return {
        "lookback.low-rank-reference": low_rank,
        "lookback.behaviour-reference": lambda: failures(against_reference.behaviour(
            runner, said, few, steps.eval_behaviour(runner, said, few))),
        "lookback.visibility-reference": lambda: failures(against_reference.visibility(
            runner, said, few, steps.eval_visibility(runner, said, few))),
        "lookback.binding-filter-reference": lambda: filtered("binding", replace(whole, sample_cap=None)),
        "lookback.source-filter-reference": lambda: filtered("source", few),
        "lookback.answer-filter-reference": lambda: filtered("answer", few),
        **{f"lookback.{key}-reference": (lambda name=name: swept(name)) for key, name in (
            ("reversed", "reversed"), ("same-position", "same position"),
            ("opaque", "opaque control"))},
        "lookback.source-freeze-reference": lambda: sourced(True),
        "lookback.source-plain-reference": lambda: sourced(False),
        "lookback.answer-reference": lambda: failures(against_reference_swaps.answer(
            runner, said, few, rows["answer"], answer())),
    }
