"""Each finding's declared null (issue 47): declared wherever published values are, naming only keys
its readout measures, and judged by its criterion without error, at the published values and on the
pinned tiny measurement (the plugin judges the null on every profile)."""
from __future__ import annotations

from typing import Any

from harness.claims import ClaimSpec, Kind
from harness.criteria.base import AllOf, Check
from harness.nulls import AsMeasured, NoNull, Null, Repeated, null_check
from harness.readout_types import criterion_keys, judged_type
from tests.pinned import declared_tests, pinned_measured

FINDINGS = [(name, fn, spec) for name, fn, spec in declared_tests() if spec.kind is not Kind.ANCHOR]
NULLS = [(name, fn, spec) for name, fn, spec in FINDINGS if isinstance(spec.null, Null)]


def read_keys(value: Any) -> set[str]:
    """The measured keys a null's value is read from (AsMeasured's key, Repeated's curve)."""
    if isinstance(value, AsMeasured):
        return {value.key}
    if isinstance(value, Repeated):
        return {value.like} | read_keys(value.value)
    return set()


def null_keys(null: Null) -> set[str]:
    """Every key a null names: those it sets and those it reads."""
    return set(null.values).union(*(read_keys(v) for v in null.values.values()))


def parts(criterion: Any) -> list[Any]:
    """The criteria a conjunction is made of, or the criterion itself."""
    return ([p for part in criterion.parts for p in parts(part)]
            if isinstance(criterion, AllOf) else [criterion])


def at_published(spec: ClaimSpec) -> tuple[dict[str, Any], set[str]]:
    """The published values as if measured, with the null's values substituted where the published
    values hold what they are read from; and the keys it sets there."""
    assert isinstance(spec.null, Null)
    held = {k: v for k, v in spec.null.values.items() if read_keys(v) <= set(spec.published)}
    if not held:
        return dict(spec.published), set()
    return {**spec.published, **Null(held, why=spec.null.why).resolved(spec.published)}, set(held)


def judged_at_published(spec: ClaimSpec) -> tuple[list[tuple[Any, Check]], list[Any]]:
    """Each part of the criterion judged on the null at the published values where those values
    hold every key it reads; the parts they do not (a measured interval, a curve not published),
    whose judgement waits for a run."""
    measured, _ = at_published(spec)
    judged, waiting = [], []
    for part in parts(spec.criterion):
        if criterion_keys(part)[0] <= set(measured):
            judged.append((part, part.judge(measured, spec.published)))
        else:
            waiting.append(part)
    return judged, waiting


def test_every_finding_with_published_values_declares_a_null():
    undeclared = [spec.id for _, _, spec in FINDINGS
                  if spec.published and not isinstance(spec.null, (Null, NoNull))]
    assert FINDINGS
    assert undeclared == []


def test_every_key_a_null_names_is_a_key_its_readout_measures():
    foreign = []
    for _, fn, spec in NULLS:
        typed = judged_type(fn)
        keys = typed.__required_keys__ | typed.__optional_keys__
        foreign += [f"{spec.id}: {k!r} is not a key of {typed.__name__}"
                    for k in sorted(null_keys(spec.null) - keys)]
    assert NULLS
    assert foreign == []


def test_every_null_at_the_published_values_is_judged_without_error():
    failures = []
    for _, _, spec in NULLS:
        try:
            judged, _ = judged_at_published(spec)
        except Exception as e:  # noqa: BLE001 - every finding's error is listed, not the first
            failures.append(f"{spec.id}: {e!r}")
            continue
        _, substituted = at_published(spec)
        if not any(criterion_keys(part)[0] & substituted for part, _ in judged):
            failures.append(f"{spec.id}: no part of its criterion judges a value the null sets")
    assert NULLS
    assert failures == []


def test_every_null_on_its_pinned_tiny_measurement_is_judged_without_error():
    failures, checked = [], 0
    for name, _, spec in NULLS:
        measured = pinned_measured(name, spec)
        if measured is None:
            continue
        checked += 1
        try:
            null_check(spec.criterion, spec.published, measured, spec.null)
        except Exception as e:  # noqa: BLE001 - every finding's error is listed, not the first
            failures.append(f"{spec.id}: {e!r}")
    assert checked
    assert failures == []
