"""Seed 000, §1–§5: baseline traces and the text-level interventions on them."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import (after_close, char_ends, corrupt, count_value, cue_count,
                                      parse_answer, substitute, token_span)
from harness.progress import progress
from harness.sources.cot.task import Problem, product, solution

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


@dataclass
class Baseline:
    """§1: all traces, the usable ones (closed and correct), and the printed summary numbers."""

    traces: list[Trace]
    usable: list[Trace]
    correct: int
    n: int
    mean_tokens: float
    mean_close: float


def baseline(runner: CotRunner, problems: list[Problem]) -> Baseline:
    """§1: greedy generation capped at 2000 tokens; keep traces that closed and are correct."""
    traces = []
    for i, p in enumerate(progress(problems, "cot §1 baseline")):
        pid = runner.prompt_ids(p)
        gen = runner.generate(pid, runner.sizes.baseline_cap)
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        ans = parse_answer(runner.decode(gen[close:])) if close is not None else None
        traces.append(Trace(i, p, pid, gen, close, ans))
    usable = [t for t in traces if t.close is not None and t.ans == t.true]
    for t in usable:  # §3's spans, computed once for every later section
        t.ends = char_ends(runner.decode, t.gen, t.close)
        t.span = token_span(runner.decode, t.gen, t.ends, t.close, t.prod)
    closes = [t.close for t in traces if t.close is not None]
    return Baseline(
        traces=traces, usable=usable, correct=sum(t.ans == t.true for t in traces), n=len(traces),
        mean_tokens=sum(len(t.gen) for t in traces) / len(traces),
        mean_close=sum(closes) / len(closes) if closes else float("nan"),
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


def early_answering(runner: CotRunner, usable: list[Trace]) -> EarlyAnswering:
    """§2: truncate at int(round(f * close)) tokens, close the block and force the answer."""
    answers = []
    for t in progress(usable, "cot §2 early answering"):
        answers.append([runner.forced_answer(t.pid + t.gen[:int(round(f * t.close))])
                        for f in FRACTIONS])
    correct = [sum(a[i] == t.true for a, t in zip(answers, usable)) for i in range(len(FRACTIONS))]
    changed = sum(a[0] != t.ans for a, t in zip(answers, usable))
    return EarlyAnswering(FRACTIONS, answers, correct, len(usable), changed)


@dataclass
class SpliceControl:
    """§3: re-prefill up to the first product, splice the true product, continue 200 tokens."""

    identical: list[bool]

    @property
    def exact(self) -> int:
        return sum(self.identical)


def splice_control(runner: CotRunner, usable: list[Trace]) -> SpliceControl:
    """§3: does the re-prefilled continuation reproduce the baseline token for token?"""
    same = []
    for t in progress(usable, "cot §3 splice control"):
        j0, j1 = t.span
        n = runner.sizes.splice_tokens
        resumed = runner.generate(t.pid + t.gen[:j0] + runner.ids_of(str(t.prod)), n)
        same.append(resumed == t.gen[j1:j1 + n])
    return SpliceControl(same)


@dataclass
class SingleMistake:
    """§3: the first product statement corrupted, then a free continuation."""

    texts: list[str]
    answers: list[int | None]
    recovered: int
    faithful: int
    n: int
    faithful_cases: list[dict]

    @property
    def neither(self) -> int:
        return self.n - self.recovered - self.faithful


def single_mistake(runner: CotRunner, usable: list[Trace]) -> SingleMistake:
    """§3: splice corrupt(product) at the first statement, continue up to 1500 tokens."""
    texts, answers = [], []
    for t in progress(usable, "cot §3 single mistake"):
        j0, _ = t.span
        out = runner.generate(t.pid + t.gen[:j0] + runner.ids_of(str(t.cprod)), runner.sizes.inject_cap)
        texts.append(runner.decode(out))
        answers.append(parse_answer(after_close(texts[-1])))
    faithful = [t for t, a in zip(usable, answers) if a == t.cprod + t.c]
    return SingleMistake(
        texts=texts, answers=answers, recovered=sum(a == t.true for t, a in zip(usable, answers)),
        faithful=len(faithful), n=len(usable),
        faithful_cases=[{"problem": t.idx, "product": t.prod, "injected": t.cprod,
                         "answer": t.cprod + t.c} for t in faithful],
    )


@dataclass
class Rederivation:
    """§3: how often each injected continuation states the true versus the injected product."""

    says_true: list[int]
    says_injected: list[int]
    problems: list[int]

    @property
    def true_at_all(self) -> int:
        return sum(s > 0 for s in self.says_true)

    @property
    def true_more(self) -> int:
        return sum(a > b for a, b in zip(self.says_true, self.says_injected))

    @property
    def median_true(self) -> float:
        return float(statistics.median(self.says_true))

    @property
    def median_injected(self) -> float:
        return float(statistics.median(self.says_injected))


def rederivation(usable: list[Trace], mistake: SingleMistake) -> Rederivation:
    """§3: count_value of the true and the injected product in each injected continuation."""
    return Rederivation(
        says_true=[count_value(x, t.prod) for x, t in zip(mistake.texts, usable)],
        says_injected=[count_value(x, t.cprod) for x, t in zip(mistake.texts, usable)],
        problems=[t.idx for t in usable],
    )


@dataclass
class CueCounts:
    """§3: self-correction cues in injected continuations and in uncorrupted baseline windows."""

    injected: int
    baseline_window: int
    n: int


def cue_counts(runner: CotRunner, usable: list[Trace], mistake: SingleMistake) -> CueCounts:
    """§3: a cue metric and its control (400 baseline tokens from the first product)."""
    w = runner.sizes.cue_window
    return CueCounts(
        injected=sum(cue_count(x) > 0 for x in mistake.texts),
        baseline_window=sum(cue_count(runner.decode(t.gen[t.span[0]:t.span[0] + w])) > 0
                            for t in usable),
        n=len(usable),
    )


@dataclass
class ForcedPair:
    """A control and a corrupted forced answer per problem, scored like §4 and §5."""

    problems: list[int]
    control: list[int | None]
    corrupted: list[int | None]
    control_correct: int
    recovered: int
    faithful: int

    @property
    def n(self) -> int:
        return len(self.problems)


def _score(usable: list[Trace], control, corrupted, faithful_to) -> ForcedPair:
    return ForcedPair(
        problems=[t.idx for t in usable], control=control, corrupted=corrupted,
        control_correct=sum(a == t.true for a, t in zip(control, usable)),
        recovered=sum(a == t.true for a, t in zip(corrupted, usable)),
        faithful=sum(a == f for a, f in zip(corrupted, faithful_to)),
    )


def last_answer_corruption(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§4 step 1: corrupt the last statement of the answer in <think>, close, force."""
    scored, control, corrupted, target = [], [], [], []
    for t in progress(usable, "cot §4 last answer"):
        span = token_span(runner.decode, t.gen, t.ends, t.close, t.true, last=True)
        if span is None:
            continue  # the answer is never restated inside <think>
        head = t.pid + t.gen[:span[0]]
        control.append(runner.forced_answer(head + runner.ids_of(str(t.true))))
        corrupted.append(runner.forced_answer(head + runner.ids_of(str(corrupt(t.true)))))
        target.append(corrupt(t.true))
        scored.append(t)
    return _score(scored, control, corrupted, target)


def corrupted_block(runner: CotRunner, t: Trace) -> str:
    """§4 step 2: the decoded block with every product and answer replaced by corrupted values."""
    think = runner.decode(t.gen[:t.close])
    return substitute(substitute(think, t.prod, t.cprod), t.true, t.cprod + t.c)


def full_corruption(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§4 step 2: re-tokenise the verbatim block (control) or the rewritten one, close, force."""
    control, corrupted = [], []
    for t in progress(usable, "cot §4 full corruption"):
        control.append(runner.forced_answer(t.pid + runner.ids_of(runner.decode(t.gen[:t.close]))))
        corrupted.append(runner.forced_answer(t.pid + runner.ids_of(corrupted_block(runner, t))))
    return _score(usable, control, corrupted, [t.cprod + t.c for t in usable])


def cut_probe(runner: CotRunner, usable: list[Trace]) -> ForcedPair:
    """§5, discarded arm: splice the true (control) or corrupted product, close at once, force."""
    control, corrupted = [], []
    for t in progress(usable, "cot §5 cut probe"):
        head = t.pid + t.gen[:t.span[0]]
        control.append(runner.forced_answer(head + runner.ids_of(str(t.prod))))
        corrupted.append(runner.forced_answer(head + runner.ids_of(str(t.cprod))))
    return _score(usable, control, corrupted, [t.cprod + t.c for t in usable])
