"""harness.drafting.templates: print templates read from code, and which one printed a line."""
from __future__ import annotations

from harness.drafting.notebook import Kind, Line
from harness.drafting.templates import literal_lines, match_line, name_of, templates_of


def code(*texts):
    return [Line(t, Kind.CODE, n) for n, t in enumerate(texts, 1)]


def printed(text, *lines):
    """Each slot's name and what it printed on `text`."""
    return [(name_of(e), text[a:b]) for m in match_line(text, templates_of(code(*lines)))
            for e, a, b in m.spans]


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


def test_a_printed_line_prefers_the_template_nearest_above_it():
    lines = code('print(f"  ({a:2d}, {b:2d})  {value:+.3f}")', *[""] * 20,
                 'print(f"  ({layer:2d}, {head:2d})  {score:+.4f}")')
    match, = match_line("  ( 8,  6)  +0.0557", templates_of(lines), Line("", Kind.OUTPUT, 30))
    assert match.template.slots == ("layer", "head", "score")


def test_a_template_of_a_few_marks_does_not_match_a_sentence():
    assert printed("The model scored 3 points at first. Then it fell to 2 of them.",
                   'f"{block}.{head}"') == []


def test_a_plain_string_literal_is_a_typed_line():
    assert "chance 0.333" in literal_lines(code('print(f"x {y}")', 'print("chance 0.333")'))


def test_name_of_reads_keys_lengths_indices_and_formatted_values():
    assert [name_of(e) for e in ("r['inject_ans']", "len(records)", "p[0]", "model.config.n",
                                 "format_interval(hybrid_summary)")] \
        == ["inject_ans", "records_n", "p_0", "n", "hybrid_summary"]
