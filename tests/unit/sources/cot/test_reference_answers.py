"""Seed 000's plain reference finds a number's statement in a trace as the study's helpers do
(issue 49): the two are written apart, so each is compared with the other on generated pieces."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.sources.cot import reference_answers as ref
from harness.sources.cot.text import char_ends, token_span
from tests.unit.sources.cot.test_reference_reading import NUMBERS, PIECES


class Pieces:
    """A tokenizer whose token i decodes to PIECES' i-th string: enough for Plain.text and span."""

    def __init__(self, pieces: list[str]):
        self.pieces = pieces

    def decode(self, ids: list[int]) -> str:
        return "".join(self.pieces[i] for i in ids)


def plain(pieces: list[str]) -> ref.Plain:
    model = object.__new__(ref.Plain)  # only the text readings: no model
    model.tok = Pieces(pieces)
    return model


@given(st.lists(PIECES, min_size=1, max_size=12), NUMBERS, st.booleans())
def test_spans_are_the_studys(pieces, value, last):
    gen, decode = list(range(len(pieces))), Pieces(pieces).decode
    ends = char_ends(decode, gen, len(gen))
    found = token_span(decode, gen, ends, len(gen), value, last=last)
    assert plain(pieces).span(gen, len(gen), value, last) == (None if found is None else list(found))
