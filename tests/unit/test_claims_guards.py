"""A claim's declaration of the steps it guards (harness.claims; harness.plugin.guards reads it)."""
from __future__ import annotations

import pytest

from harness.claims import ClaimSpec, Kind, claim, spec_of
from harness.criteria import Exact


@pytest.mark.parametrize("kind", [Kind.CLAIM, Kind.MEASUREMENT])
def test_only_an_anchor_declares_the_steps_it_guards(kind):
    with pytest.raises(ValueError, match=r"^cot\.guarding-finding: only an anchor declares the "
                                         r"steps it guards$"):
        ClaimSpec(id="cot.guarding-finding", kind=kind, section="1", statement="s",
                  published={}, provenance="p", criterion=Exact("v"), guards=("cot_baseline",))


def test_an_anchor_declares_its_guarded_steps_in_order():
    @claim("cot.guarding-anchor", kind="anchor", section="1", statement="s", published={},
           provenance="p", criterion=Exact("v"), guards=["cot_runner", "cot_baseline"])
    def test_probe(judge): ...

    assert spec_of(test_probe).guards == ("cot_runner", "cot_baseline")
