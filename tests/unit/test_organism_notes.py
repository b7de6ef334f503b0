"""Each finding run on an organism records what the organism's construction forces in it."""
from __future__ import annotations

import claims.heads.test_findings as heads_findings
from harness.claims import CLAIM_ATTR, Kind
from harness.plugin.judging import organism_note
from harness.profiles import get_profile
from harness.sources.heads.organism_notes import CLAIM_NOTES


def heads_claim_specs() -> dict:
    specs = (getattr(f, CLAIM_ATTR) for f in vars(heads_findings).values()
             if hasattr(f, CLAIM_ATTR))
    return {s.id: s for s in specs if s.kind is Kind.CLAIM}


def test_every_heads_finding_has_a_note_and_every_note_a_finding():
    assert set(CLAIM_NOTES) == set(heads_claim_specs())


def test_each_note_says_what_is_forced_and_what_is_learned():
    assert all("Forced:" in note and ("Learned:" in note or "learned" in note)
               for note in CLAIM_NOTES.values())


def test_the_note_is_recorded_on_the_organism():
    spec = heads_claim_specs()["heads.grid"]
    assert organism_note(get_profile("tiny"), spec) == CLAIM_NOTES["heads.grid"]


def test_no_note_on_the_published_model():
    spec = heads_claim_specs()["heads.grid"]
    assert organism_note(get_profile("published"), spec) is None
