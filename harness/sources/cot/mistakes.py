"""Seed 000, §3: one product statement re-spliced, true or corrupted, and what follows it."""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from harness.sources.cot.rows import Row
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.text import after_close, count_value, cue_count, parse_answer
from harness.sources.cot.traces import Trace, spanned


@dataclass
class SpliceControl:
    """§3: re-prefill up to the first product, splice the true product, continue `splice_tokens`."""

    identical: list[bool]
    rows: list[Row]

    @property
    def exact(self) -> int:
        return sum(self.identical)


def splice_control(runner: CotRunner, usable: list[Trace]) -> SpliceControl:
    """§3: does the re-prefilled continuation reproduce the baseline token for token?"""
    found, n = spanned(usable), runner.sizes.splice_tokens
    prefixes = [t.pid + t.gen[:t.span[0]] + runner.ids_of(str(t.prod)) for t in found]
    resumed = runner.generate_many(prefixes, n, "cot §3 splice control")
    return SpliceControl([r == t.gen[t.span[1]:t.span[1] + n] for r, t in zip(resumed, found)],
                         [Row(p, r) for p, r in zip(prefixes, resumed)])


@dataclass
class SingleMistake:
    """§3: the first product statement corrupted, then a free continuation."""

    texts: list[str]
    answers: list[int | None]
    recovered: int
    faithful: int
    n: int
    faithful_cases: list[dict]
    rows: list[Row]

    @property
    def neither(self) -> int:
        return self.n - self.recovered - self.faithful

    @property
    def faithful_problems(self) -> list[int]:
        return [c["problem"] for c in self.faithful_cases]


def single_mistake(runner: CotRunner, usable: list[Trace]) -> SingleMistake:
    """§3: splice corrupt(product) at the first statement, continue up to `inject_cap` tokens."""
    usable = spanned(usable)
    prefixes = [t.pid + t.gen[:t.span[0]] + runner.ids_of(str(t.cprod)) for t in usable]
    outs = runner.generate_many(prefixes, runner.sizes.inject_cap, "cot §3 single mistake")
    texts = [runner.decode(out) for out in outs]
    answers = [parse_answer(after_close(text)) for text in texts]
    faithful = [t for t, a in zip(usable, answers) if a == t.cprod + t.c]
    return SingleMistake(
        texts=texts, answers=answers, recovered=sum(a == t.true for t, a in zip(usable, answers)),
        faithful=len(faithful), n=len(usable),
        faithful_cases=[{"problem": t.idx, "product": t.prod, "injected": t.cprod,
                         "answer": t.cprod + t.c} for t in faithful],
        rows=[Row(p, out) for p, out in zip(prefixes, outs)],
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
    usable = spanned(usable)  # the traces single_mistake continued, in its order
    return Rederivation(
        says_true=[count_value(x, t.prod) for x, t in zip(mistake.texts, usable)],
        says_injected=[count_value(x, t.cprod) for x, t in zip(mistake.texts, usable)],
        problems=[t.idx for t in usable],
    )


@dataclass
class CueCounts:
    """§3: self-correction cues in each injected continuation and in each uncorrupted baseline
    window, and how many of each hold one."""

    injected_cues: list[int]
    window_cues: list[int]

    @property
    def injected(self) -> int:
        return sum(c > 0 for c in self.injected_cues)

    @property
    def baseline_window(self) -> int:
        return sum(c > 0 for c in self.window_cues)

    @property
    def n(self) -> int:
        return len(self.injected_cues)


def cue_counts(runner: CotRunner, usable: list[Trace], mistake: SingleMistake) -> CueCounts:
    """§3: a cue metric and its control (`cue_window` baseline tokens from the first product)."""
    w = runner.sizes.cue_window
    usable = spanned(usable)  # the traces single_mistake continued, in its order
    return CueCounts(
        injected_cues=[cue_count(x) for x in mistake.texts],
        window_cues=[cue_count(runner.decode(t.gen[t.span[0]:t.span[0] + w])) for t in usable],
    )
