"""Reference anchors (issue 49): a study's measured values, on a few of its rows, equal those of
the notebook's procedure written again as plain code (one prompt at a time, plain PyTorch
forward hooks, no batching, none of the study's helpers), so that a study computing the wrong
quantity with sound machinery (the wrong cell, run, position, window or baseline) fails an
anchor and blocks its findings, rather than reading as a finding that did not replicate.

A source keeps its reference in `harness/sources/<name>/reference.py`, which imports nothing of
its source but the task data and the model loader (tests/test_layers.py), and declares one step
per study that compares the two (`compare`), guarded by an anchor built from `claim_fields`."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypedDict

from harness.criteria import Exact, NoneOf

NEEDS_LOCAL_WEIGHTS = ("a reference anchor runs the notebook's procedure through plain forward "
                       "hooks on the model in this process; on NDIF it runs remotely: run it "
                       "with --backend=local")


@dataclass(frozen=True)
class Agreement:
    """How closely study and reference must agree: `abs` 0 means exactly (the same arithmetic in
    the same order); otherwise `why` says which order of operations differs and why `abs` bounds
    it."""

    abs: float = 0.0
    why: str = "the same arithmetic in the same order: equal exactly"

    def __post_init__(self) -> None:
        if self.abs < 0 or not math.isfinite(self.abs):
            raise ValueError(f"a reference tolerance is a finite non-negative number, not {self.abs}")
        if self.abs and self.why == Agreement.why:
            raise ValueError("a reference tolerance above 0 says why the arithmetic differs")


EXACTLY = Agreement()


@dataclass
class Comparison:
    """What a reference anchor found: the rows compared (by label), the numbers compared, the
    largest absolute difference among them, the tolerance and every mismatch in words."""

    study: str
    rows: list[str]
    values: int = 0
    max_abs_diff: float = 0.0
    tolerance: float = 0.0
    why: str = ""
    mismatches: list[str] = field(default_factory=list)


def sampled(n: int, every_up_to: int = 8) -> list[int]:
    """The rows a reference re-runs: every row where there are at most `every_up_to`, else the
    first, a middle one and the last (issue 49)."""
    if n <= every_up_to:
        return list(range(n))
    return sorted({0, n // 2, n - 1})


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    """Every leaf of nested dicts, lists and tuples, with its path."""
    if isinstance(value, Mapping):
        return [leaf for k in sorted(value, key=str) for leaf in _leaves(value[k], f"{path}.{k}")]
    if isinstance(value, (list, tuple)):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{path}[{i}]")]
    return [(path, value)]


def _shape(value: Any) -> Any:
    """Its nesting with every leaf replaced, so that two values of other shapes differ."""
    if isinstance(value, Mapping):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_shape(v) for v in value]
    return None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compare(study: str, measured: Mapping[str, Any], reference: Mapping[str, Any],
            agreement: Agreement = EXACTLY) -> Comparison:
    """Compare the study's values with the reference's, row by row (each a label -> value:
    a number, bool, string or None, or lists and dicts of them). Numbers agree within
    `agreement.abs` (exactly at 0; NaN only with NaN); anything else by ==. A row the reference
    has and the study lacks, or the other way round, is a mismatch."""
    found = Comparison(study, sorted(reference, key=str), tolerance=agreement.abs,
                       why=agreement.why)
    for row in sorted(set(measured) ^ set(reference), key=str):
        side = "the study" if row in measured else "the reference"
        found.mismatches.append(f"row {row}: only {side} has it")
    for row in found.rows:
        if row not in measured:
            continue
        got, want = measured[row], reference[row]
        if _shape(got) != _shape(want):
            found.mismatches.append(f"row {row}: the study's value has another shape "
                                    f"({got!r} against {want!r})")
            continue
        for (path, a), (_, b) in zip(_leaves(got, str(row)), _leaves(want, str(row))):
            if _number(a) and _number(b):
                found.values += 1
                if math.isnan(a) or math.isnan(b):
                    ok, diff = math.isnan(a) and math.isnan(b), 0.0
                else:
                    diff = abs(a - b) if a != b else 0.0
                    ok = diff <= agreement.abs and math.isfinite(diff) or a == b
                found.max_abs_diff = max(found.max_abs_diff, diff if math.isfinite(diff) else math.inf)
            else:
                found.values += 1
                ok = a == b and type(a) is type(b)
            if not ok:
                found.mismatches.append(f"{path}: study {a!r}, reference {b!r}")
    if not found.rows:
        found.mismatches.append("no row compared: a reference of nothing is no evidence")
    return found


def compared(study: str, measured: Mapping[str, Any],
             reference: Callable[[], Mapping[str, Any]], agreement: Agreement = EXACTLY) -> Comparison:
    """`compare` with the reference computed here (a step's body: the reference runs only when
    the anchor's step is asked for)."""
    return compare(study, measured, reference(), agreement)


def failures(found: Comparison) -> list[str]:
    """The mismatches, each naming the study (the catalogue's check)."""
    return [f"{found.study}: {m}" for m in found.mismatches]


class ReferenceRecord(TypedDict):
    """What a reference anchor judges (`readout`)."""

    agrees: bool
    rows: list[str]
    values: int
    max_abs_diff: float
    tolerance: float
    mismatches: list[str]


def readout(found: Comparison | Mapping[str, Comparison]) -> ReferenceRecord:
    """What a reference anchor records, over one study or several (each row label prefixed with
    its study's name where there are several); the first mismatches."""
    parts = [found] if isinstance(found, Comparison) else list(found.values())
    several = len(parts) > 1
    mismatches = [m for p in parts for m in (failures(p) if several else p.mismatches)]
    return {"agrees": not mismatches and all(p.rows for p in parts),
            "rows": [f"{p.study}:{r}" if several else r for p in parts for r in p.rows],
            "values": sum(p.values for p in parts),
            "max_abs_diff": max((p.max_abs_diff for p in parts), default=0.0),
            "tolerance": max((p.tolerance for p in parts), default=0.0),
            "mismatches": mismatches[:5]}


def claim_fields(statement: str, provenance: str, why: str = "") -> dict[str, Any]:
    """A reference anchor's fields beside its id, section and `guards`: it must agree on every
    profile (a mechanical check), and its decisions say what the tolerance allows and why."""
    from harness.claims import Holds

    return {"kind": "anchor", "statement": statement, "published": {"agrees": True},
            "provenance": provenance, "criterion": Exact("agrees"),
            "holds": Holds(NoneOf("mismatches", of="values")),
            "headline": ("{values} values on rows {rows} against the plain reference; max |Δ| "
                         "{max_abs_diff:.2g} (allowed {tolerance:.2g}); mismatched: {mismatches}"),
            "decisions": (why or Agreement.why,), "readout": readout}

