"""harness.drafting.templates: print templates read from code (f-strings, strings joined across
lines, print calls), each slot named by what it printed, and plain literals as typed lines."""
from __future__ import annotations

from harness.drafting.templates import literal_lines
from tests.unit.drafting.printed_lines import code, printed


def test_an_fstring_slot_names_what_it_printed():
    assert printed("belief accuracy 0.745", 'print(f"belief accuracy {acc_belief:.3f}")') == \
        [("acc_belief", "0.745")]


def test_strings_joined_across_lines_make_one_template():
    assert printed("At input 31, mean p(L) is 0.646. Which head?",
                   'f"At input {block}, mean p(L) is "',
                   'f"{summary[\'mean\']:.3f}. Which head?"') == [("block", "31"),
                                                                 ("mean", "0.646")]


def test_a_print_call_joins_its_arguments_with_spaces():
    assert printed("20 problems, e.g.", 'print(len(PROBLEMS), "problems, e.g.")') == \
        [("PROBLEMS_n", "20")]


def test_a_plain_string_literal_is_a_typed_line():
    assert "chance 0.333" in literal_lines(code('print(f"x {y}")', 'print("chance 0.333")'))
