"""harness.claims.registered_kind: a claim's kind and section are written once, in the register
row that carries it; a check no row carries declares them."""
from __future__ import annotations

import pytest

from harness.claims import Kind, registered_kind

REPEATED = ("cot.baseline-accuracy: its register row gives its kind (claim) and section (1): the "
            "declaration repeats neither")


def refusal(claim_id: str, kind: str | None, section: str | None) -> str:
    with pytest.raises(TypeError) as refused:
        registered_kind(claim_id, kind, section)
    return str(refused.value)


def test_a_registered_claim_takes_its_rows_kind_and_section():
    assert registered_kind("cot.baseline-accuracy", None, None) == (Kind.CLAIM, "1")


def test_a_registered_claim_declaring_its_kind_is_refused():
    assert refusal("cot.baseline-accuracy", "claim", None) == REPEATED


def test_a_registered_claim_declaring_its_section_is_refused():
    assert refusal("cot.baseline-accuracy", None, "1") == REPEATED


def test_a_row_without_a_section_column_takes_the_declared_section():
    assert registered_kind("patching.layer-flip", None, "code cell") == (Kind.CLAIM, "code cell")


def test_a_row_without_a_section_column_refuses_a_declared_kind_naming_the_kind_alone():
    assert refusal("patching.layer-flip", "claim", "code cell") == (
        "patching.layer-flip: its register row gives its kind (claim): the declaration repeats "
        "neither")


def test_a_row_without_a_section_column_needs_one_declared():
    assert refusal("patching.layer-flip", None, None) == (
        "patching.layer-flip: its register row has no section column: declare its section")


def test_an_unregistered_check_keeps_its_declared_kind_and_section():
    assert registered_kind("cot.noise-fires-once", "anchor", "6") == (Kind.ANCHOR, "6")


@pytest.mark.parametrize("kind, section", [(None, "6"), ("anchor", None)])
def test_an_unregistered_check_must_declare_both(kind, section):
    assert refusal("cot.noise-fires-once", kind, section) == (
        "cot.noise-fires-once: no register row carries it, so it declares its kind and section")
