"""Criteria without uncertainty: equal values, every case, two routes to one number, bounds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from harness.criteria.base import Check, Values


@dataclass(frozen=True)
class Exact:
    """The measured value equals the published one."""

    key: str

    def describe(self) -> str:
        return f"{self.key} equals the published value"

    def judge(self, measured: Values, published: Values) -> Check:
        m, p = measured[self.key], published[self.key]
        return Check(m == p, f"{self.key}: measured {m!r}, published {p!r}")


@dataclass(frozen=True)
class Every:
    """Every one of the n cases came out as the check expects: the measured count equals the
    measured n (at least one case), or falls short of it by at most `slack`."""

    key: str
    n_key: str = "n"
    slack: int = 0

    def describe(self) -> str:
        every = f"all {self.n_key}" if not self.slack else f"all but at most {self.slack} of {self.n_key}"
        return f"{self.key} counts {every} (n > 0)"

    def judge(self, measured: Values, published: Values) -> Check:
        k, n = measured[self.key], measured[self.n_key]
        return Check(n > 0 and k >= n - self.slack, f"{self.key}: {k}/{n}"
                     + (f", {self.slack} may fall short" if self.slack else ""))


@dataclass(frozen=True)
class Same:
    """Two measured values are equal (a machinery check: two routes to one number)."""

    key: str
    other: str

    def describe(self) -> str:
        return f"{self.key} equals {self.other}"

    def judge(self, measured: Values, published: Values) -> Check:
        m, o = measured[self.key], measured[self.other]
        return Check(m == o, f"{self.key} {m!r}, {self.other} {o!r}")


@dataclass(frozen=True)
class Length:
    """A measured list has exactly `count` items (`</think>` is one token)."""

    key: str
    count: int

    def describe(self) -> str:
        return f"{self.key} has {self.count} item(s)"

    def judge(self, measured: Values, published: Values) -> Check:
        m = measured[self.key]
        return Check(len(m) == self.count, f"{self.key}: {m!r}, {len(m)} item(s)")


@dataclass(frozen=True)
class AtMost:
    """The measured value does not exceed the published bound."""

    key: str

    def describe(self) -> str:
        return f"{self.key} at most the published bound"

    def judge(self, measured: Values, published: Values) -> Check:
        m, p = measured[self.key], published[self.key]
        return Check(m <= p, f"{self.key}: measured {m}, bound {p}")


class NoneFailedCounts(TypedDict):
    """What NoneFailed reads by default: the failures counted and first named, of those checked."""

    failed: int
    first_failed: list[str]
    checked: int


@dataclass(frozen=True)
class NoneFailed:
    """A machinery check's count of failed cases is zero, of at least one case checked (`of`
    names the measured count: nothing checked is no evidence); `names`, when given, is the
    measured list of the first failures, which the detail shows."""

    key: str = "failed"
    names: str | None = "first_failed"
    of: str = "checked"

    @staticmethod
    def counts(names: list[str], checked: int, first: int = 8) -> NoneFailedCounts:
        """The measured entries this criterion reads by default: the failures' count and first
        names, and how many cases were checked."""
        return {"failed": len(names), "first_failed": names[:first], "checked": checked}

    def describe(self) -> str:
        return f"{self.key} is 0 of at least one {self.of}"

    def judge(self, measured: Values, published: Values) -> Check:
        n, of = measured[self.key], measured[self.of]
        first = f", first {measured[self.names]}" if n and self.names else ""
        return Check(n == 0 and of > 0, f"{self.key}: {n} of {of} {self.of}{first}")


@dataclass(frozen=True)
class NoneOf:
    """A machinery check's measured list of failing cases is empty, of at least one case checked
    (`of` names the measured count, or a measured list to count): an empty list of nothing is
    no evidence."""

    key: str
    of: str

    def describe(self) -> str:
        return f"{self.key} is empty, of at least one {self.of}"

    def judge(self, measured: Values, published: Values) -> Check:
        failing, of = measured[self.key], measured[self.of]
        n = len(of) if isinstance(of, (list, tuple, dict)) else of
        return Check(not failing and n > 0, f"{self.key}: {failing!r} of {n} {self.of}")


@dataclass(frozen=True)
class Recorded:
    """No published number exists: the value is recorded and snapshot-pinned, never judged."""

    def describe(self) -> str:
        return "no published value: recorded and pinned by snapshot only"

    def judge(self, measured: Values, published: Values) -> Check:
        return Check(True, "recorded")
