"""A claim's declaration: its headline filled from measured or published values, its statement
from the published ones."""
from __future__ import annotations

from typing import Any

import pytest

from harness.claims import ClaimSpec, Holds, Kind, Needs, claim, spec_of
from harness.criteria import Exact, KnownAnswer
from harness.nulls import Null
from harness.snapshots import ORGANISM_FLOATS, ORGANISM_FLOATS_REASON, Tolerance


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


def declared(**fields: Any) -> ClaimSpec:
    """A ClaimSpec of the cot source with `fields` over a minimal finding's."""
    return ClaimSpec(**{"id": "cot.probe", "kind": Kind.CLAIM, "section": "1", "statement": "s",
                        "published": {"v": 1}, "provenance": "p", "criterion": Exact("v"),
                        **fields})


def test_an_unknown_source_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^nosuch\.probe: unknown source 'nosuch'$"):
        declared(id="nosuch.probe")


def test_the_source_is_the_id_before_its_first_dot():
    assert declared(id="cot.probe.v2").source_name == "cot"


def test_a_finding_cannot_require_itself():
    with pytest.raises(ValueError, match=r"^cot\.probe requires itself$"):
        declared(requires=("cot.anchor", "cot.probe"))


def test_a_finding_may_require_an_anchor():
    assert declared(requires=("cot.anchor",)).requires == ("cot.anchor",)


def test_only_an_anchor_declares_what_holds():
    with pytest.raises(ValueError, match=r"^cot\.probe: only an anchor declares what holds on every "
                                         r"profile$"):
        declared(holds=Holds(Exact("v")))


def test_an_anchor_declares_what_holds():
    assert declared(kind=Kind.ANCHOR, holds=Holds(Exact("v"))).holds == Holds(Exact("v"))


def test_a_model_free_finding_is_refused_with_the_reason():
    with pytest.raises(ValueError) as raised:
        declared(needs=Needs.CPU)
    assert str(raised.value) == (
        "cot.probe: a finding needs its model (needs='hub' or 'gpu'); needs='cpu' is for "
        "model-free checks, whose published values apply on every profile, so a finding would "
        "read 'replicated' on the organisms")


def test_tokenizer_only_is_for_hub_tests():
    with pytest.raises(ValueError, match=r"^cot\.probe: tokenizer_only is for needs='hub' tests$"):
        declared(tokenizer_only=True)
    assert declared(needs=Needs.HUB, tokenizer_only=True).tokenizer_only


def test_an_organism_tolerance_is_refused_without_its_reason():
    with pytest.raises(ValueError, match=r"^cot\.probe: an organism tolerance needs a reason$"):
        declared(organism_tolerance=Tolerance(abs=1e-3))


def test_the_published_profile_compares_within_the_declared_tolerance():
    assert declared(tolerance=Tolerance(abs=0.1)).float_tolerance(True) == (
        Tolerance(abs=0.1), "declared by the claim for the published profile")


def test_an_organism_compares_within_the_claims_organism_tolerance_and_its_reason():
    spec = declared(tolerance=Tolerance(abs=0.1), organism_tolerance=Tolerance(abs=1e-3),
                    organism_tolerance_reason="rounded to 3 places")
    assert spec.float_tolerance(False) == (Tolerance(abs=1e-3), "rounded to 3 places")


def test_an_organism_compares_within_the_float32_default_otherwise():
    assert declared(tolerance=Tolerance(abs=0.1)).float_tolerance(False) == (
        ORGANISM_FLOATS, ORGANISM_FLOATS_REASON)


def test_holds_says_whether_it_is_mechanical_or_behavioural():
    assert Holds(Exact("v")).describe() == "v equals the published value (mechanical)"
    assert Holds(Exact("v"), behavioural=True).describe() == \
        "v equals the published value (behavioural)"


def test_the_record_states_the_whole_declaration():
    spec = declared(kind=Kind.ANCHOR, section="2.1", statement="v is one", provenance="table 2",
                    requires=("cot.base",), needs=Needs.HUB, decisions=("d1",),
                    holds=Holds(Exact("v")), known_answer=KnownAnswer(Exact("v"), planted="v"))
    assert spec.as_record() == {
        "id": "cot.probe", "kind": "anchor", "source": "cot", "section": "2.1",
        "statement": "v is one", "seed": spec.source.seed_file, "published": {"v": 1},
        "provenance": "table 2", "criterion": "v equals the published value",
        "requires": ["cot.base"], "needs": "hub", "decisions": ["d1"],
        "holds": "v equals the published value (mechanical)",
        "known_answer": "v equals the published value, against the organism's planted v",
        "null": None}


def test_the_record_states_no_holds_or_known_answer_where_none_is_declared():
    record = declared().as_record()
    assert (record["holds"], record["known_answer"]) == (None, None)


def test_claim_declares_every_argument_it_is_given():
    fields = dict(section="2", published={"v": 1}, provenance="p", criterion=Exact("v"),
                  requires=("cot.base",), tolerance=Tolerance(abs=0.1), decisions=("d1",),
                  organism_tolerance=Tolerance(abs=1e-3), organism_tolerance_reason="why",
                  headline="v {v}", tokenizer_only=True, holds=Holds(Exact("v")),
                  known_answer=KnownAnswer(Exact("v"), planted="v"), guards=("steer",))

    @claim("cot.every-field", kind="anchor", statement="s", needs="hub", **fields)
    def test_probe(judge): ...

    assert spec_of(test_probe) == ClaimSpec(id="cot.every-field", kind=Kind.ANCHOR, statement="s",
                                            needs=Needs.HUB, **fields)


def test_claim_declares_a_findings_null():
    null = Null({"v": 0}, why="no effect leaves v at 0")

    @claim("cot.with-null", kind="claim", section="1", statement="s", published={"v": 1},
           provenance="p", criterion=Exact("v"), null=null)
    def test_probe(judge): ...

    assert spec_of(test_probe).null == null


def test_an_anchor_with_a_null_is_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"^cot\.probe: an anchor checks machinery; only a finding "
                                         r"has a null$"):
        declared(kind=Kind.ANCHOR, null=Null({"v": 0}, why="w"))


def test_the_record_states_a_findings_null():
    assert declared(null=Null({"v": 0}, why="w")).as_record()["null"] == \
        Null({"v": 0}, why="w").describe()


def test_a_claim_without_a_headline_has_none():
    @claim("cot.no-headline", kind="claim", section="1", statement="s", published={"v": 1},
           provenance="p", criterion=Exact("v"))
    def test_probe(judge): ...

    assert spec_of(test_probe).headline_of({"v": 1}) is None


def test_a_test_without_a_claim_has_no_spec():
    assert spec_of(lambda: None) is None
