"""Seed 000's plain reference reads and rewrites numbers as the study's helpers do (issue 49):
the two are written apart, so each reading is compared with the other on generated strings."""
from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from harness.sources.cot import reference_reading as ref
from harness.sources.cot.text import corrupt, count_value, parse_answer, substitute

PIECES = st.sampled_from(["1", "3", "25", "325", "371", "4", ".", " ", "x", "\\boxed{", "}",
                          "-", "1234567", "\\boxed{ 371 }"])
TEXT = st.lists(PIECES, max_size=14).map("".join)
UNBOXED = st.lists(st.sampled_from(["1", "25", "371", ".", " ", "1234567"]), max_size=10).map("".join)
NUMBERS = st.sampled_from([1, 3, 25, 325, 371, 4])


@given(st.one_of(TEXT, UNBOXED))
@example("25 is 371.5 or .371")
def test_answers_are_read_as_the_study_reads_them(text):
    assert ref.answer(text) == parse_answer(text)


@given(TEXT, NUMBERS)
def test_counts_are_the_studys(text, value):
    assert ref.count(text, value) == count_value(text, value)


@given(TEXT, NUMBERS, NUMBERS)
def test_replacements_are_the_studys(text, old, new):
    assert ref.replace_number(text, old, new) == substitute(text, old, new)


@given(st.integers(min_value=1, max_value=99999))
def test_corruptions_are_the_studys(value):
    assert ref.corrupt(value) == corrupt(value)
