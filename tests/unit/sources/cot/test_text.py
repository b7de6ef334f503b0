"""Seed 000's text helpers, on hand-made strings."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.sources.cot.text import (corrupt, count_value, cue_count, parse_answer, substitute,
                                      token_span)


def test_parse_answer_prefers_the_last_boxed_value():
    assert parse_answer("so 12 \\boxed{371} and \\boxed{ 372 }") == 372


def test_parse_answer_falls_back_to_the_last_standalone_integer():
    assert parse_answer("325 plus 46 is 371.5 or 1234567 or 371") == 371
    assert parse_answer("nothing here 7") is None


def test_count_value_ignores_longer_digit_runs():
    assert count_value("325, 1325, 3250, (325)", 325) == 2


@given(st.integers(min_value=100, max_value=999))
def test_corrupt_keeps_three_digits_and_moves_by_100(value):
    c = corrupt(value)
    assert 100 <= c <= 999 and abs(c - value) == 100


def test_substitute_replaces_only_standalone_numbers():
    assert substitute("325+1325=325", 325, 425) == "425+1325=425"


def test_cue_count_is_case_insensitive():
    assert cue_count("Wait, hmm. Hold on, that's not right") == 4


def test_token_span_finds_first_and_last_occurrence():
    pieces = ["a ", "3", "2", "5", " b ", "3", "2", "5", "."]
    decode = lambda ids: "".join(pieces[i] for i in ids)  # noqa: E731
    gen = list(range(len(pieces)))
    ends = [len(decode(gen[:k + 1])) for k in range(len(gen))]
    assert token_span(decode, gen, ends, len(gen), 325) == (1, 4)
    assert token_span(decode, gen, ends, len(gen), 325, last=True) == (5, 8)
    assert token_span(decode, gen, ends, len(gen), 999) is None
