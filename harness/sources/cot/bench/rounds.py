"""The benchmark's rounds (issue 50): every side timed once per round, in an order that rotates
from round to round so no side always runs first or last, after one untimed warm-up round; the
ratios' median and spread over the rounds, and an A/A ratio (the straight side against itself)
that says how far two runs of one side differ on this machine."""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Rounds:
    """Each side's seconds per round, and its answers (which must not change between rounds)."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)  # sides whose answers moved between rounds


def run_rounds(sides: dict[str, Callable[[], Any]], rounds: int) -> Rounds:
    """A warm-up of every side, then `rounds` rounds timing each side once, the order rotated."""
    found = Rounds({name: [] for name in sides})
    for name, side in sides.items():
        found.answers[name] = side()
    names = list(sides)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            start = time.perf_counter()
            answer = sides[name]()
            found.seconds[name].append(time.perf_counter() - start)
            if answer != found.answers[name] and name not in found.changed:
                found.changed.append(name)
    return found


@dataclass(frozen=True)
class Ratio:
    """One side's time over another's, per round: the median and the spread (half the range of
    the per-round ratios over their median: every round lies within median × (1 ± spread))."""

    per_round: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.per_round)

    @property
    def spread(self) -> float:
        return (max(self.per_round) - min(self.per_round)) / (2 * self.median)

    def as_record(self) -> dict[str, Any]:
        return {"median": round(self.median, 3), "spread": round(self.spread, 3),
                "per_round": [round(r, 3) for r in self.per_round]}


def ratio(found: Rounds, over: str, under: str) -> Ratio:
    """`over`'s seconds over `under`'s, round by round (the two ran in the same round)."""
    return Ratio(tuple(a / b for a, b in zip(found.seconds[over], found.seconds[under])))
