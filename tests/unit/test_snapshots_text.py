"""Snapshot comparison of strings: words and ids exactly, the computed floats written in them (a
catalogue's "study 0.0657525, reference -8.15943") within the float tolerance."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.snapshots import ORGANISM_FLOATS, Tolerance, compare

WIDE = Tolerance(abs=10.0, rel=1.0)


def test_a_computed_float_in_a_message_moved_within_the_tolerance_is_no_difference():
    assert compare("study 0.0657525, reference -8.15943", "study 0.0657527, reference -8.15943",
                   ORGANISM_FLOATS) == []


def test_every_computed_float_in_a_message_is_compared_within_the_tolerance():
    assert compare("study 0.5, reference -8.15943, gap 1.23456", "study 0.5, reference -8.15944, "
                   "gap 1.23457", ORGANISM_FLOATS) == []


def test_a_computed_float_in_a_message_moved_past_the_tolerance_is_a_difference():
    assert compare("study 0.0657525", "study 0.0658525", ORGANISM_FLOATS) == [
        ": pinned 'study 0.0657525', measured 'study 0.0658525'"]


def test_without_a_tolerance_a_message_must_be_the_same_text():
    assert compare("study 0.0657525", "study 0.0657527", Tolerance()) != []


def test_a_number_of_two_decimals_is_an_id_compared_as_text():
    assert compare("head 12.10", "head 12.1", WIDE) != []
    assert compare("layer 0.11", "layer 0.12", WIDE) != []


def test_a_number_of_three_decimals_is_a_computed_float():
    assert compare("p 0.111", "p 0.112", WIDE) == []


def test_a_number_with_an_exponent_is_a_computed_float_whatever_its_decimals():
    assert compare("x 1.5e-05", "x 1.50001e-05", ORGANISM_FLOATS) == []


def test_the_words_around_the_floats_compare_exactly():
    assert compare("study 0.0657525", "reference 0.0657525", WIDE) != []
    assert compare("a 0.123 b", "a 0.123 c", WIDE) != []


def test_a_message_with_another_count_of_numbers_is_a_difference():
    assert compare("0.123 0.456", "0.123", WIDE) != []


def test_a_computed_float_against_an_id_is_compared_as_text():
    assert compare("v 0.100001", "v 0.1", WIDE) != []


@given(st.text())
def test_a_message_always_matches_itself(text):
    assert compare(text, text, Tolerance()) == []
