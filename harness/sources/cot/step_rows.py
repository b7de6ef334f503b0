"""Seed 000 §2–§7's batched rows read back as §1's are (batched_rows.py): in the mode under test,
a few rows of each batched step (the shortest, median and longest prefix) must be, token by
token, what one plain forward of the row's own prefix predicts, edited as the row was; and every
answer a forced step recorded must be the one its row writes, read here from the row's ids."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.cot.batched_rows import TOKENS, chosen, first_unpredicted
from harness.sources.cot.continuations import Continuations
from harness.sources.cot.decode import NoopRuns
from harness.sources.cot.forcing import ForcedPair
from harness.sources.cot.mistakes import SingleMistake, SpliceControl
from harness.sources.cot.noise import Specificity
from harness.sources.cot.patching import LayerScreen, Pair, SelfPatch
from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import parse_answer
from harness.sources.cot.traces import EarlyAnswering


@dataclass(frozen=True)
class Batch:
    """§2–§7: one batched step's rows; for a forced step, the answer it recorded for each row,
    in row order; how many of each row's tokens are checked (None: all of them)."""

    name: str
    rows: list[Row]
    answers: list[int | None] | None = None
    tokens: int | None = TOKENS


@dataclass
class StepRows:
    """§2–§7: which rows of each step were read back, how many of their tokens and how many
    recorded answers were checked, and each misread row or answer."""

    steps: dict[str, list[int]]
    tokens: int
    answers: int
    misread: list[str]


def written_answer(runner: CotRunner, row: Row) -> int | None:
    """§1: the answer a forced row writes, read from its ids here (FORCE ends `\\boxed{`)."""
    return parse_answer("\\boxed{" + runner.decode(row.out))


def misread_answers(runner: CotRunner, b: Batch) -> list[str]:
    """§1's forced answers: every answer `b` recorded that is not the one its row writes."""
    if b.answers is None:
        return []
    if len(b.answers) != len(b.rows):
        return [f"{b.name}: {len(b.answers)} answers recorded for {len(b.rows)} rows"]
    written = [written_answer(runner, r) for r in b.rows]
    return [f"{b.name} row {i}: recorded answer {a}, the row writes {w}"
            for i, (a, w) in enumerate(zip(b.answers, written)) if a != w]


def read_back(runner: CotRunner, batches: list[Batch]) -> StepRows:
    """§2–§7: a few rows of each batch against one plain forward each, and every recorded
    answer against its row."""
    steps, tokens, answers, misread = {}, 0, 0, []
    for b in batches:
        decoded = [i for i, r in enumerate(b.rows) if r.out]
        picks = [decoded[j] for j in chosen([len(b.rows[i].prefix) for i in decoded])] \
            if decoded else []
        steps[b.name] = picks
        for i in picks:
            row = b.rows[i]
            tokens += len(row.out if b.tokens is None else row.out[:b.tokens])
            k = first_unpredicted(runner, row, b.tokens)
            if k is not None:
                misread.append(f"{b.name} row {i}: token {k} ({row.out[k]}) is not what its "
                               f"prefix predicts")
        answers += len(b.answers or [])
        misread += misread_answers(runner, b)
    return StepRows(steps, tokens, answers, misread)


def early_rows(runner: CotRunner, early: EarlyAnswering) -> StepRows:
    """§2: the forced rows, problem by problem, each problem's fractions in order."""
    return read_back(runner, [Batch("§2 early answering", early.rows,
                                    [a for answers in early.answers for a in answers])])


def splice_rows(runner: CotRunner, splice: SpliceControl, mistake: SingleMistake) -> StepRows:
    """§3: the true-product splices' and the injected mistakes' continuations."""
    return read_back(runner, [Batch("§3 splice control", splice.rows),
                              Batch("§3 single mistake", mistake.rows)])


def _forced(name: str, pair: ForcedPair) -> Batch:
    """§4/§5: a forced pair's rows and answers, controls first, as `_forced_pairs` sent them."""
    return Batch(name, pair.rows, pair.control + pair.corrupted)  # controls first


def corruption_rows(runner: CotRunner, last: ForcedPair, full: ForcedPair) -> StepRows:
    """§4: the last-answer and the full-block corruptions' forced rows, with their controls."""
    return read_back(runner, [_forced("§4 last answer", last),
                              _forced("§4 full corruption", full)])


def cut_probe_rows(runner: CotRunner, cut: ForcedPair) -> StepRows:
    """§5: the cut probe's forced rows, with its controls."""
    return read_back(runner, [_forced("§5 cut probe", cut)])


def decode_loop_rows(runner: CotRunner, noop: NoopRuns, specificity: Specificity) -> StepRows:
    """§6: the +0.0 runs, and both noised arms whole (the late arm writes after the answer)."""
    return read_back(runner, [Batch("§6 no-op", noop.rows),
                              Batch("§6 noise", specificity.rows, tokens=None)])


def patch_rows(runner: CotRunner, ps: list[Pair], self_patch: SelfPatch, screen: LayerScreen,
               continuations: Continuations) -> StepRows:
    """§7: the donors' traces (where the model decoded them), the self-patch, every screened
    layer's and every condition's rows."""
    return read_back(runner, [
        Batch("§7 donors", [Row(p.donor_pid, p.donor_gen) for p in ps if not p.donor_scripted]),
        Batch("§7 self-patch", self_patch.rows),
        Batch("§7 layer screen", [r for rows in screen.rows.values() for r in rows]),
        Batch("§7 continuations", [r for rows in continuations.rows.values() for r in rows])])
