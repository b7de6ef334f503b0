"""A criterion's outcome (Check), what every criterion offers (Criterion), and their conjunction."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

Values = Mapping[str, Any]  # what a claim measured (its readout), or what it published


@dataclass(frozen=True)
class Check:
    """The outcome of one criterion: whether it held, and what was compared."""

    ok: bool
    detail: str


class Criterion(Protocol):
    def describe(self) -> str: ...

    def judge(self, measured: Values, published: Values) -> Check: ...


@dataclass(frozen=True)
class AllOf:
    """Every listed criterion holds."""

    parts: tuple[Criterion, ...]

    def describe(self) -> str:
        return "; ".join(p.describe() for p in self.parts)

    def judge(self, measured: Values, published: Values) -> Check:
        checks = [p.judge(measured, published) for p in self.parts]
        return Check(all(c.ok for c in checks), " | ".join(c.detail for c in checks))


def all_of(*parts: Criterion) -> AllOf:
    """Combine criteria; the claim holds when every part does."""
    return AllOf(tuple(parts))
