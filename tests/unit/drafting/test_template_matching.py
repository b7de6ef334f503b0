"""harness.drafting.template_matching: which template printed a line, and the name a slot
gives what it printed."""
from __future__ import annotations

from harness.drafting.notebook import Kind, Line
from harness.drafting.template_matching import match_line, name_of
from harness.drafting.templates import templates_of
from tests.unit.drafting.printed_lines import code, printed


def test_a_printed_line_prefers_the_template_nearest_above_it():
    lines = code('print(f"  ({a:2d}, {b:2d})  {value:+.3f}")', *[""] * 20,
                 'print(f"  ({layer:2d}, {head:2d})  {score:+.4f}")')
    match, = match_line("  ( 8,  6)  +0.0557", templates_of(lines), Line("", Kind.OUTPUT, 30))
    assert match.template.slots == ("layer", "head", "score")


def test_a_template_of_a_few_marks_does_not_match_a_sentence():
    assert printed("The model scored 3 points at first. Then it fell to 2 of them.",
                   'f"{block}.{head}"') == []


def test_name_of_reads_keys_lengths_indices_and_formatted_values():
    assert [name_of(e) for e in ("r['inject_ans']", "len(records)", "p[0]", "model.config.n",
                                 "format_interval(hybrid_summary)")] \
        == ["inject_ans", "records_n", "p_0", "n", "hybrid_summary"]
