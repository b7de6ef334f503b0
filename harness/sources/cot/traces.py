"""Seed 000, §1–§2: the greedy baseline traces, their restatements and early answering."""
from __future__ import annotations

from dataclasses import dataclass, field

from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import Problem, product, solution
from harness.sources.cot.text import char_ends, corrupt, count_value, token_span

FRACTIONS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass
class Trace:
    """§1: one problem's greedy baseline and the spans later sections use."""

    idx: int
    p: Problem
    pid: list[int]
    gen: list[int]
    close: int | None
    ans: int | None
    ends: list[int] = field(default_factory=list)
    span: tuple[int, int] | None = None
    scripted: bool = False  # `gen` is the rehearsal's script, not what this model decodes

    @property
    def true(self) -> int:
        return solution(self.p)

    @property
    def prod(self) -> int:
        return product(self.p)

    @property
    def cprod(self) -> int:
        return corrupt(self.prod)

    @property
    def c(self) -> int:
        return self.p[2]


def spanned(usable: list[Trace]) -> list[Trace]:
    """§3/§5/§7: the usable traces whose thinking block states the product a*b; a trace that never
    does is counted out of the steps that splice or patch at that statement."""
    return [t for t in usable if t.span is not None]


@dataclass
class Baseline:
    """§1: all traces, the usable ones (closed and correct), and the printed summary numbers."""

    traces: list[Trace]
    usable: list[Trace]
    correct: int
    n: int
    mean_tokens: float
    mean_close: float | None  # None when no trace closed </think>


def _find_spans(runner: CotRunner, t: Trace) -> None:
    """§3: the decoded length after each thinking token, and the first product statement."""
    t.ends = char_ends(runner.decode, t.gen, t.close)
    t.span = token_span(runner.decode, t.gen, t.ends, t.close, t.prod)


def script(runner: CotRunner, p: Problem) -> list[int]:
    """A competent trace's shape, for rows forced past §1's filter on random weights: a thinking
    block that states the product a*b and the answer, `</think>`, then the boxed answer."""
    a, b, c = p
    think = f"{a}*{b} = {product(p)}, + {c} = {solution(p)}. Answer: {solution(p)}\n"
    return (runner.ids_of(think) + [runner.think_close]
            + runner.ids_of(f"\\boxed{{{solution(p)}}}"))


def scripted(runner: CotRunner, traces: list[Trace]) -> list[Trace]:
    """`traces` with their generations replaced by `script`, closed, answered and spanned as a
    usable trace is (each marked scripted)."""
    out = []
    for t in traces:
        gen = script(runner, t.p)
        s = Trace(t.idx, t.p, t.pid, gen, gen.index(runner.think_close), runner.answer_of(gen),
                  scripted=True)
        _find_spans(runner, s)
        out.append(s)
    return out


def baseline(runner: CotRunner, problems: list[Problem]) -> Baseline:
    """§1: capped greedy generation; keep the traces that closed and are correct."""
    traces = []
    pids = [runner.prompt_ids(p) for p in problems]
    gens = runner.generate_many(pids, runner.sizes.baseline_cap, "cot §1 baseline")
    for i, (p, pid, gen) in enumerate(zip(problems, pids, gens)):
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        traces.append(Trace(i, p, pid, gen, close, runner.answer_of(gen)))
    usable = [t for t in traces if t.close is not None and t.ans == t.true]
    for t in usable:  # §3's spans, computed once for every later section
        _find_spans(runner, t)
    closes = [t.close for t in traces if t.close is not None]
    return Baseline(
        traces=traces, usable=usable, correct=sum(t.ans == t.true for t in traces), n=len(traces),
        mean_tokens=sum(len(t.gen) for t in traces) / len(traces),
        mean_close=sum(closes) / len(closes) if closes else None,
    )


@dataclass
class Restatements:
    """§1: how often each trace states the product and the answer, inside and after <think>."""

    product_in_think: list[int]
    answer_in_think: list[int]
    answer_after: list[int]

    @staticmethod
    def mean(values: list[int]) -> float:
        return round(sum(values) / len(values), 1)


def restatements(runner: CotRunner, usable: list[Trace]) -> Restatements:
    """§1: count_value over the decoded block before and after `</think>`."""
    think = [runner.decode(t.gen[:t.close]) for t in usable]
    after = [runner.decode(t.gen[t.close:]) for t in usable]
    return Restatements(
        product_in_think=[count_value(x, t.prod) for x, t in zip(think, usable)],
        answer_in_think=[count_value(x, t.true) for x, t in zip(think, usable)],
        answer_after=[count_value(x, t.true) for x, t in zip(after, usable)],
    )


@dataclass
class EarlyAnswering:
    """§2: the forced answer after each fraction of the thinking block."""

    fractions: tuple[float, ...]
    answers: list[list[int | None]]  # [problem][fraction]
    correct: list[int]  # per fraction
    n: int
    changed_by_cot: int  # problems whose no-CoT answer differs from the full-CoT answer
    rows: list[Row]  # the forced rows, problem by problem, each problem's fractions in order

    @property
    def correct_rate(self) -> list[float]:
        """The fraction correct at each fraction kept, to 4 places."""
        return [round(c / self.n, 4) for c in self.correct]


def early_answering(runner: CotRunner, usable: list[Trace]) -> EarlyAnswering:
    """§2: truncate at int(round(f * close)) tokens, close the block and force the answer."""
    rows = runner.forced([t.pid + t.gen[:int(round(f * t.close))]
                          for t in usable for f in FRACTIONS], "cot §2 early answering")
    flat = [runner.forced_answer(r) for r in rows]
    answers = [flat[i:i + len(FRACTIONS)] for i in range(0, len(flat), len(FRACTIONS))]
    correct = [sum(a[i] == t.true for a, t in zip(answers, usable)) for i in range(len(FRACTIONS))]
    changed = sum(a[0] != t.ans for a, t in zip(answers, usable))
    return EarlyAnswering(FRACTIONS, answers, correct, len(usable), changed, rows)
