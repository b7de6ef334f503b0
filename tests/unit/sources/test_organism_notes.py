"""Each finding run on an organism records what the organism's construction forces in it."""
from __future__ import annotations

import importlib

import pytest

from harness.claims import CLAIM_ATTR, Kind
from harness.plugin.entries import organism_note
from harness.registry import get_profile, registered, source
from tests.paths import ROOT

# The sources whose organisms say what their construction forces (an organism_notes module).
FINDINGS = sorted(name for name, s in registered().items() if s.part("organism_notes"))


def claim_specs(name: str) -> dict:
    """The findings (kind claim) of every test module in claims/<name>/."""
    modules = (f"claims.{name}.{path.stem}"
               for path in sorted((ROOT / "claims" / name).glob("test_*.py")))
    specs = (getattr(f, CLAIM_ATTR) for module in modules
             for f in vars(importlib.import_module(module)).values() if hasattr(f, CLAIM_ATTR))
    return {s.id: s for s in specs if s.kind is Kind.CLAIM}


def notes(name: str) -> dict[str, str]:
    return source(name).part("organism_notes").CLAIM_NOTES


@pytest.mark.parametrize("name", FINDINGS)
def test_every_finding_has_a_note_and_every_note_a_finding(name):
    assert set(notes(name)) == set(claim_specs(name))


@pytest.mark.parametrize("name", FINDINGS)
def test_each_note_says_what_is_forced_and_what_is_learned_or_why_nothing_is(name):
    assert all(note.startswith("Forced:") and ("learned" in note.lower()
                                                or "by construction" in note
                                                or "says nothing" in note)
               for note in notes(name).values())


@pytest.mark.parametrize("name", FINDINGS)
def test_the_note_is_recorded_on_the_organism(name):
    spec_id, spec = next(iter(claim_specs(name).items()))
    assert organism_note(get_profile("tiny"), spec) == notes(name)[spec_id]


@pytest.mark.parametrize("name", FINDINGS)
def test_no_note_on_the_published_model(name):
    spec = next(iter(claim_specs(name).values()))
    assert organism_note(get_profile("published"), spec) is None
