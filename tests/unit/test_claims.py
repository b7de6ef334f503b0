"""A claim's declaration: its headline filled from measured or published values, its statement
from the published ones."""
from __future__ import annotations

import pytest

from harness.claims import ClaimSpec, Kind, Needs, claim, spec_of
from harness.criteria import Exact


def spec(headline: str) -> ClaimSpec:
    return ClaimSpec(id="cot.headline-probe", kind=Kind.CLAIM, section="1", statement="s",
                     published={"recovered": 19, "n": 20}, provenance="p",
                     criterion=Exact("recovered"), headline=headline)


def test_the_headline_reads_measured_and_published_values_alike():
    s = spec("recovered {recovered}/{n}")
    assert s.headline_of({"recovered": 16, "n": 20}) == "recovered 16/20"
    assert s.headline_of(s.published) == "recovered 19/20"


def test_a_value_the_dict_lacks_shows_as_a_dash_whatever_its_format():
    assert spec("IIA {iia:.3f} at {layers[3]}").headline_of({"n": 1}) == "IIA — at —"


def test_no_headline_or_no_values_gives_none():
    assert spec("").headline_of({"n": 1}) is None
    assert spec("{n}").headline_of(None) is None


def test_a_none_value_reads_as_none_even_with_a_float_format():
    assert spec("p(L) {p:.3f} at block {block}").headline_of({"p": None, "block": None}) == \
        "p(L) none at block none"


def test_a_statement_names_its_published_values_once():
    @claim("cot.statement-probe", kind="claim", section="1", published={"recovered": 19, "n": 20},
           statement="recovered in {recovered}/{n}", provenance="p", criterion=Exact("recovered"))
    def test_probe(judge): ...

    assert spec_of(test_probe).statement == "recovered in 19/20"


def test_a_finding_cannot_be_declared_model_free():
    with pytest.raises(ValueError, match="a finding needs its model"):
        ClaimSpec(id="cot.free-finding", kind=Kind.CLAIM, section="1", statement="s",
                  published={"v": 1}, provenance="p", criterion=Exact("v"), needs=Needs.CPU)


def test_a_model_free_anchor_is_allowed():
    spec = ClaimSpec(id="cot.free-anchor", kind=Kind.ANCHOR, section="1", statement="s",
                     published={"v": 1}, provenance="p", criterion=Exact("v"), needs=Needs.CPU)
    assert spec.needs is Needs.CPU
