"""A finding's declared null (issue 47): what its measurement would be with no effect, with its
provenance. Where the criterion that accepts the measurement accepts the null too, the verdict
is "inconclusive": the sample could not tell the finding from no effect. A finding whose null
cannot be stated declares `NoNull` with the reason."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from harness.criteria.base import AllOf
from harness.criteria.intervals import CoversPublished
from harness.criteria.sensitivity import sensitivities


@dataclass(frozen=True)
class AsMeasured:
    """A null value read off another measured value (a baseline the same run measured)."""

    key: str


@dataclass(frozen=True)
class Repeated:
    """A curve holding one value (a number or AsMeasured) at every point of the measured `like`."""

    value: Any
    like: str


@dataclass(frozen=True)
class Null:
    """The measured values with no effect (`values`: key -> a value, AsMeasured or Repeated),
    and why these are what no effect gives."""

    values: Mapping[str, Any]
    why: str

    def __post_init__(self) -> None:
        if not self.values or not self.why:
            raise ValueError("a null names the values no effect gives, and why")

    def resolved(self, measured: Mapping[str, Any]) -> dict[str, Any]:
        """The null's values on these measured values (a baseline read off them)."""
        def value(v: Any) -> Any:
            if isinstance(v, AsMeasured):
                return measured[v.key]
            if isinstance(v, Repeated):
                return [value(v.value)] * len(measured[v.like])
            return v

        return {k: value(v) for k, v in self.values.items()}

    def describe(self) -> str:
        def shown(v: Any) -> str:
            if isinstance(v, AsMeasured):
                return f"the measured {v.key}"
            if isinstance(v, Repeated):
                return f"{shown(v.value)} at every point"
            return repr(v)

        return ", ".join(f"{k} = {shown(v)}" for k, v in self.values.items()) + f" ({self.why})"


@dataclass(frozen=True)
class NoNull:
    """Why no null can be stated for this finding (e.g. it is itself the absence of an effect)."""

    why: str

    def __post_init__(self) -> None:
        if not self.why:
            raise ValueError("a finding without a null says why")

    def describe(self) -> str:
        return f"no null: {self.why}"


def _moved_intervals(criterion: Any, measured: Mapping[str, Any],
                     values: Mapping[str, Any]) -> dict[str, Any]:
    """A measured interval around a value the null replaces, moved with it (a CoversPublished
    part reads the interval alone, so the null must move the interval onto its value)."""
    parts = criterion.parts if isinstance(criterion, AllOf) else (criterion,)
    moved = {}
    for part in parts:
        if isinstance(part, AllOf):
            moved |= _moved_intervals(part, measured, values)
        elif (isinstance(part, CoversPublished) and part.key in values
              and part.interval_key not in values and part.interval_key in measured
              and isinstance(values[part.key], (int, float))
              and isinstance(measured.get(part.key), (int, float))):
            shift = values[part.key] - measured[part.key]
            lo, hi = measured[part.interval_key]
            moved[part.interval_key] = [lo + shift, hi + shift]
    return moved


def null_check(criterion: Any, published: Mapping[str, Any], measured: Mapping[str, Any],
               null: Null | NoNull | None) -> dict[str, Any] | None:
    """Whether the criterion accepts the null in place of the measured values (at the measured
    n), and what it compared; None where no null is declared."""
    if null is None:
        return None
    if isinstance(null, NoNull):
        return {"accepts_null": None, "null": None, "detail": null.describe()}
    values = null.resolved(measured)
    check = criterion.judge({**measured, **values, **_moved_intervals(criterion, measured, values)},
                            published)
    return {"accepts_null": check.ok, "null": values, "detail": f"{null.describe()}: {check.detail}"}


def evidence(criterion: Any, published: Mapping[str, Any], measured: Mapping[str, Any],
             null: Null | NoNull | None) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """A finding's sensitivity, part by part, and its null check (none without published values)."""
    if not published:
        return [], None
    found = sensitivities(criterion, published, measured)
    try:
        check = null_check(criterion, published, measured, null)
    except (TypeError, KeyError, ValueError, ZeroDivisionError) as error:
        # measured values the criterion cannot judge (a run that chose no block, on random
        # weights): where published values apply, the criterion itself has failed on them first
        check = {"accepts_null": None, "null": None,
                 "detail": f"not judged: the measured values cannot be ({type(error).__name__}: "
                           f"{error})"}
    return [s.as_record() for s in found], check
