"""Seed 000, §4–§5: corrupted thinking blocks closed and the answer forced, with controls."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import corrupt, substitute, token_span
from harness.sources.cot.traces import Trace, spanned


@dataclass
class ForcedPair:
    """A control and a corrupted forced answer per problem, scored like §4 and §5."""

    problems: list[int]
    control: list[int | None]
    corrupted: list[int | None]
    control_correct: int
    recovered: int
    faithful: int
    rows: list[Row]  # the forced rows: every control, then every corrupted one, in problem order

    @property
    def n(self) -> int:
        return len(self.problems)


def _score(runner: CotRunner, usable: list[Trace], rows: list[Row],
           faithful_to: list[int]) -> ForcedPair:
    """Each problem's control and corrupted answer, read from the rows `_forced_pairs` made."""
    answers = [runner.forced_answer(r) for r in rows]
    control, corrupted = answers[:len(usable)], answers[len(usable):]
    return ForcedPair(
        problems=[t.idx for t in usable], control=control, corrupted=corrupted,
        control_correct=sum(a == t.true for a, t in zip(control, usable)),
        recovered=sum(a == t.true for a, t in zip(corrupted, usable)),
        faithful=sum(a == f for a, f in zip(corrupted, faithful_to)), rows=rows,
    )


def last_answer_corruption(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§4 step 1: corrupt the last statement of the answer in <think>, close, force."""
    scored, heads = [], []
    for t in usable:
        span = token_span(runner.decode, t.gen, t.ends, t.close, t.true, last=True)
        if span is None:
            continue  # the answer is never restated inside <think>
        heads.append(t.pid + t.gen[:span[0]])
        scored.append(t)
    rows = _forced_pairs(runner, heads, [str(t.true) for t in scored],
                         [str(corrupt(t.true)) for t in scored], "cot §4 last answer")
    return _score(runner, scored, rows, [corrupt(t.true) for t in scored])


def _forced_pairs(runner: CotRunner, heads: list[list[int]], control: list[str],
                  corrupted: list[str], what: str) -> list[Row]:
    """Each head continued with its control text and with its corrupted text, answers forced (in
    fast mode all in one batch, controls first)."""
    return runner.forced([h + runner.ids_of(x) for h, x in zip(heads, control)]
                         + [h + runner.ids_of(x) for h, x in zip(heads, corrupted)], what)


def corrupted_block(runner: CotRunner, t: Trace) -> str:
    """§4 step 2: the decoded block with every product and answer replaced by corrupted values."""
    think = runner.decode(t.gen[:t.close])
    return substitute(substitute(think, t.prod, t.cprod), t.true, t.cprod + t.c)


def full_corruption(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§4 step 2: re-tokenise the verbatim block (control) or the rewritten one, close, force."""
    rows = _forced_pairs(runner, [t.pid for t in usable],
                         [runner.decode(t.gen[:t.close]) for t in usable],
                         [corrupted_block(runner, t) for t in usable], "cot §4 full corruption")
    return _score(runner, usable, rows, [t.cprod + t.c for t in usable])


def cut_probe(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§5, discarded arm: splice the true (control) or corrupted product, close at once, force."""
    usable = spanned(usable)
    rows = _forced_pairs(runner, [t.pid + t.gen[:t.span[0]] for t in usable],
                         [str(t.prod) for t in usable], [str(t.cprod) for t in usable],
                         "cot §5 cut probe")
    return _score(runner, usable, rows, [t.cprod + t.c for t in usable])
