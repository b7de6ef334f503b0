"""harness.standard_anchors: one factory for the anchors every source declares alike."""
from __future__ import annotations

import pytest

from harness.claims import Holds
from harness.standard_anchors import StandardAnchor

def held(found: bool) -> dict:
    return {"held": found, "missed": []}


RULE = StandardAnchor({"held": True, "missed": []}, headline="held: {held}", readout=held)


def test_a_claim_applying_the_rule_declares_its_published_keys_each_exactly():
    fields = RULE.fields("It holds.", "the rule")
    assert fields["published"] == {"held": True, "missed": []}
    assert [c.key for c in fields["criterion"].parts] == ["held", "missed"]


def test_the_claim_names_the_provenance_where_the_rule_names_none():
    assert RULE.fields("It holds.", "seed 000 §6")["provenance"] == "seed 000 §6"


def test_a_provenance_given_twice_is_refused():
    with pytest.raises(TypeError, match="once"):
        StandardAnchor({"held": True}, "h", held, provenance="the rule").fields("s", "again")


def test_a_provenance_given_nowhere_is_refused():
    with pytest.raises(TypeError, match="once"):
        RULE.fields("It holds.")


def test_a_claim_applying_the_rule_holds_it_on_every_profile():
    fields = RULE.fields("It holds.", "the rule")
    assert fields["holds"] == Holds(fields["criterion"])
    assert not fields["holds"].behavioural


def test_a_claim_applying_the_rule_judges_the_rules_readout():
    assert RULE.fields("It holds.", "the rule")["readout"] is held
