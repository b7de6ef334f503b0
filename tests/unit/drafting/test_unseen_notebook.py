"""interp-claims new on a notebook it was not written against (tests/fixtures/notebooks/, whose
README says where it comes from): a logit lens as a .ipynb."""
from __future__ import annotations

import pytest

from harness.drafting.draft import ModelRef, draft
from harness.drafting.notebook import read_notebook
from harness.drafting.writing import write_draft
from tests.paths import ROOT

NOTEBOOK = ROOT / "tests" / "fixtures" / "notebooks" / "capital-lens.ipynb"
GPT2 = ModelRef("openai-community/gpt2", "607a30d783dfa663caf39e06633721c8d4cfcd7e")


@pytest.fixture(scope="module")
def drafted():
    return draft("lens", read_notebook(NOTEBOOK), GPT2)


def test_a_rate_with_its_n_gets_a_binomial_criterion(drafted):
    (claim,) = [c for c in drafted.claims if c.key == "ok"]
    assert claim.printed == "37/40 (92%)" and claim.suggestion.criterion.startswith("Binomial(")


def test_a_mean_with_its_interval_gets_that_interval(drafted):
    (claim,) = [c for c in drafted.claims if c.key == "mean_rank"]
    assert claim.suggestion.criterion.startswith("InInterval(")


def test_values_printed_in_a_loop_are_one_claim(drafted):
    (claim,) = [c for c in drafted.claims if c.key == "p"]
    assert claim.printed == "[0.041, 0.187, 0.522, 0.806]"


def test_each_provenance_is_the_raw_json_line_that_holds_the_number(drafted):
    raw = NOTEBOOK.read_text().splitlines()
    for claim in drafted.claims:
        assert claim.numbers[0].text in raw[claim.lines[0] - 1], claim.id


def test_it_writes_a_draft_from_the_notebook(drafted, tmp_path):
    write_draft(drafted, tmp_path / "lens")
    assert "lens.mean-rank" in (tmp_path / "lens" / "register.md").read_text()
