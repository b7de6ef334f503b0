"""Every declared claim's published values pass its own criterion, wherever the published values
hold every key the criterion reads (a conjunction is judged by those of its parts that can)."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from harness.claims import ClaimSpec
from harness.criteria import AllOf, Criterion
from harness.registry import registered
from tests.pinned import declared


def parts(criterion: Criterion) -> list[Criterion]:
    """The criteria a conjunction is made of, or the criterion itself."""
    return ([p for part in criterion.parts for p in parts(part)]
            if isinstance(criterion, AllOf) else [criterion])


def reads(criterion: Criterion) -> set[str]:
    """The keys a criterion reads: every text field of a criterion names a measured or published
    key (`key`, `n_key`, `other`, `of`, `names`, ...)."""
    return {v for f in dataclasses.fields(criterion)
            if isinstance(v := getattr(criterion, f.name), str)}


def judgeable() -> list[Any]:
    """One parameter per declared claim: the parts of its criterion that its published values can
    judge, or a skip that names the measured-only keys when none can."""
    found = []
    for _, spec in declared():
        keys = set(spec.published)
        able = [p for p in parts(spec.criterion) if reads(p) <= keys]
        unable = sorted(set().union(*(reads(p) for p in parts(spec.criterion))) - keys)
        if able:
            left_out = f" (parts reading measured-only {unable} left out)" if unable else ""
            found.append(pytest.param(spec, AllOf(tuple(able)), id=spec.id + left_out))
        else:
            reason = f"{spec.id} reads measured-only {unable}"
            found.append(pytest.param(spec, None, id=reason, marks=pytest.mark.skip(reason=reason)))
    return found


CLAIMS = judgeable()


@pytest.mark.parametrize("spec, criterion", CLAIMS)
def test_the_published_values_pass_their_own_criterion(spec: ClaimSpec, criterion: AllOf):
    check = criterion.judge(spec.published, spec.published)
    assert check.ok, f"{spec.id}: its published values fail its own criterion: {check.detail}"


def test_every_source_has_a_claim_judged_by_its_own_criterion():
    judged = {p.values[0].source_name for p in CLAIMS if p.values[1] is not None}
    assert judged == set(registered())
