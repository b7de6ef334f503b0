"""A claim's published values against what its register row prints, under the documented
normalisation."""
from __future__ import annotations

from decimal import Decimal

import pytest

from harness.register import RegisterReading, RegisterRow
from harness.register_values import printed_numbers, unprinted, unprinted_values

ROW = RegisterRow(id="demo.rate", kind="claim", section="2", what="f ∈ {0,.5,1}",
                  published="correct 0.35, 0.60; changes the answer on 13/20 (65%)")


def values(text: str) -> list[Decimal]:
    return [p.value for p in printed_numbers(text)]


def test_a_percentage_prints_its_fraction():
    assert Decimal("0.65") in values("65%")


def test_a_ratio_prints_both_counts_and_its_rate():
    assert values("13/20")[:2] == [13, 20] and Decimal("0.65") in values("13/20")


def test_an_integer_range_prints_every_integer_inside():
    assert sorted(values("positions 185–188")) == [185, 186, 187, 188]


def test_a_leading_dot_and_an_exponent_are_read():
    assert values(".625 and 1.67e-8") == [Decimal("0.625"), Decimal("1.67e-8")]


def test_a_minus_after_a_letter_is_no_sign():
    assert values("C−L −20.0 at layer-30") == [Decimal("-20.0"), 30]


def test_a_declared_number_rounds_to_the_printed_precision():
    assert unprinted([0.8007, 0.125], "0.80070; floor 12%") == []


def test_a_printed_integer_admits_no_rounding():
    assert unprinted(0.4, "0/20") == [Decimal("0.4")]


def test_a_different_number_is_unprinted():
    assert unprinted({"rate": [0.35, 0.36]}, "0.35") == [Decimal("0.36")]


def test_booleans_none_and_empty_containers_are_not_checked():
    assert unprinted({"all_exact": True, "missing": [], "detail": None, "failures": {}}, "") == []


def test_a_string_is_checked_through_its_numbers():
    assert unprinted(["32.7", "25*13+46<-25*16+46"], "32.7; 25*13+46←25*16+46") == []


def test_a_string_without_digits_is_a_word_of_the_text():
    assert unprinted([" Mary", "Y", "Ma"], 'toward " Mary"; top Y') == ["Ma"]


def test_a_newline_is_read_as_a_table_cell_writes_it():
    assert unprinted("assistant\n<think>\n", r"template ends `assistant\n<think>\n`") == []


def test_each_key_is_read_from_the_published_column():
    found = unprinted_values(ROW.id, {"correct": [0.35, 0.6], "changed": 14, "n": 20}, ROW,
                             RegisterReading())
    assert found == {"changed": [14]}


def test_a_design_key_is_read_from_the_what_column():
    reading = RegisterReading(design={ROW.id: ("fractions",)})
    assert unprinted_values(ROW.id, {"fractions": [0.0, 0.5, 1.0]}, ROW, reading) == {}
    assert unprinted_values(ROW.id, {"fractions": [0.35]}, ROW, reading) == {
        "fractions": [Decimal("0.35")]}


def test_a_key_declared_unprinted_is_not_checked():
    reading = RegisterReading(unprinted={ROW.id: {"n_layers": "the setup cell"}})
    assert unprinted_values(ROW.id, {"n_layers": 36}, ROW, reading) == {}


def test_a_tie_rounds_half_to_even():
    assert unprinted([0.125, 0.25, 0.35], "12%, .2, .3") == [Decimal("0.35")]


def test_a_declared_number_near_one_rounds_to_its_printed_precision():
    assert unprinted([1.46, -0.802], "1.5; −0.80") == []


def test_a_minus_in_an_exponent_is_read():
    assert values("p = 1.67e−8") == [Decimal("1.67e-8")]


def test_a_ratios_rate_and_a_ranges_integers_admit_no_rounding():
    assert [p.rounded for p in printed_numbers("13/20 at 185–188")] == [False] * 7
    assert unprinted([0.651, 186.4], "13/20 at 185–188") == [Decimal("0.651"), Decimal("186.4")]


def test_a_string_of_spaces_or_newlines_is_not_checked():
    assert unprinted(["  ", " \n "], "abc") == []


def test_only_the_spaces_around_a_string_are_stripped():
    assert unprinted([" XOR ", "Mary\n"], "the XOR gate; Mary") == ["Mary\n"]


def test_a_published_value_without_a_printed_form_is_refused_by_type():
    with pytest.raises(TypeError, match="^a published value of type set has no printed form$"):
        unprinted({"heads": {9, 10}}, "9, 10")
