"""harness.drafting.share: the share of a register's numbers the drafter finds, per seed."""
from __future__ import annotations

import pytest

from harness.drafting.share import measure, published_numbers, register_value
from tests.paths import ROOT

SHARED = ROOT.parent / "shared"
REGISTER = """# Register

## Source `toy` — seed `toy.txt`, "Measuring a toy effect"

| id | kind | § | what | published |
|---|---|---|---|---|
| toy.accuracy | claim | 1 | accuracy | 0.85 over `17/20` items, 85% |
| toy.peak | claim | 2 | the peak | peak at L1; effect 0.40 |
"""


def test_a_registers_numbers_are_read_per_row_from_its_published_column():
    assert published_numbers(REGISTER) == {("toy", "toy.txt"): [["0.85", "85%"], ["1", "0.40"]]}


def test_a_register_number_is_its_value_within_half_its_last_digit():
    assert register_value("0.9999961853") == pytest.approx((0.9999961853, 5e-11), rel=0.05)


def test_a_register_percent_is_a_fraction():
    assert register_value("95%") == pytest.approx((0.95, 0.005))


def test_the_share_counts_the_register_numbers_found_in_the_draft(dump, tmp_path):
    register = tmp_path / "claims.md"
    register.write_text(REGISTER.replace("0.40", "0.41"))
    (share,) = measure(register, dump.parent)
    assert (share.found, share.missing) == (("0.85", "85%", "1"), ("0.41",))


@pytest.fixture(scope="module")
def seed_shares() -> dict:
    """The share drafted of each seed's register numbers in ../shared/, measured once."""
    if not (SHARED / "claims.md").exists():
        pytest.skip("../shared/ is not here")
    return {s.source: s for s in measure(SHARED / "claims.md", SHARED / "seeds")}


def test_most_of_each_seeds_register_numbers_are_drafted(seed_shares):
    assert {name: s.share > 0.5 for name, s in seed_shares.items() if name != "patching"} == {
        "cot": True, "heads": True, "lookback": True}


def test_the_seed_that_prints_no_numbers_drafts_none(seed_shares):
    assert seed_shares["patching"].drafted == 0
