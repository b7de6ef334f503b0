"""harness.drafting.draft: draft claims with their sections, provenance and criteria."""
from __future__ import annotations

import pytest

from harness.drafting.draft import ModelRef, draft
from harness.drafting.notebook import read_notebook

GPT2 = ModelRef("openai-community/gpt2", "607a30d783dfa663caf39e06633721c8d4cfcd7e")


def test_each_claim_has_file_line_provenance(dump):
    made = draft("toy", read_notebook(dump), GPT2)
    lines = dump.read_text().splitlines()
    for claim in made.claims:
        name, line = claim.provenance.split(" ")[0].split(":")
        assert name == "toy.txt" and claim.numbers[0].text in lines[int(line.split("-")[0]) - 1]


def test_a_claim_takes_its_section_from_the_heading_above_it(dump):
    made = draft("toy", read_notebook(dump), GPT2)
    assert {c.key: c.section for c in made.claims}["k"] == "1"


def test_a_claim_id_is_the_source_and_its_key(dump):
    made = draft("toy", read_notebook(dump), GPT2)
    assert [c.id for c in made.claims if c.key == "best"] == ["toy.best"]


def test_a_source_name_must_be_a_package_name(dump):
    with pytest.raises(ValueError, match="package name"):
        draft("Toy-Source", read_notebook(dump), GPT2)


def test_a_model_without_a_revision_is_refused():
    with pytest.raises(ValueError, match="ORG/NAME@REVISION"):
        ModelRef.parse("openai-community/gpt2")
