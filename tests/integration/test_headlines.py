"""Every claim declares its headline, and the headline reads its pinned tiny values in full."""
from __future__ import annotations

import pytest

from tests.pinned import declared, pinned_measured

CLAIMS = declared()


@pytest.mark.parametrize("name,spec", CLAIMS, ids=[s.id for _, s in CLAIMS])
def test_the_claim_declares_a_headline_that_reads_its_pinned_values(name, spec):
    assert spec.headline, f"{spec.id} declares no headline"
    measured = pinned_measured(name, spec)
    if measured is None:
        pytest.skip(f"{spec.id} has no tiny snapshot (its test skips on the organism)")
    text = spec.headline_of(measured)
    assert text and "—" not in text, f"{spec.id}: {spec.headline!r} → {text!r}"
