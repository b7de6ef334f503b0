"""Seed 001's prompt-layout anchors (harness/sources/heads/anchors/layouts.py) on the tiny tokenizer."""
from __future__ import annotations

from dataclasses import replace

from harness.sources.heads.anchors.layouts import prompt_layouts
from harness.sources.heads.task import (MAIN, OPENING, Question, generate_family,
                                        single_token_filter, tokenizer_corpus)
from harness.sources.heads.tokenizer import heads_tokenizer


def test_every_opening_and_main_prompt_keeps_its_layout():
    tok = heads_tokenizer(tokenizer_corpus())
    single = single_token_filter(tok)
    opening = prompt_layouts("opening", [generate_family(OPENING, i) for i in range(8)], tok)
    main = prompt_layouts("main", [generate_family(MAIN, i, single) for i in range(32)], tok)
    assert (opening.failed, main.failed) == ([], [])
    assert (opening.prompts, main.prompts) == (24, 96)
    assert (opening.positions, main.positions) == (24 * 21, 96 * 41)
    assert len(main.lengths) == 1


def test_a_shorter_donor_table_breaks_the_pair_its_study_copies_between():
    tok = heads_tokenizer(tokenizer_corpus())
    family = generate_family(MAIN, 0)
    short = replace(family, D=Question(family.D.bindings[:-1], family.D.query))
    assert prompt_layouts("opening", [short], tok).failed == [
        f"{family.family_id}: R and D differ in length"]
    assert prompt_layouts("main", [short], tok).failed == [
        f"{family.family_id}: O and D differ in length or label positions"]


def test_a_two_token_object_is_named_with_its_row():
    tok = heads_tokenizer(tokenizer_corpus())
    family = generate_family(MAIN, 0)
    rows = [list(b) for b in family.O.bindings]
    rows[1][0] = "ice cream"
    failed = prompt_layouts("main", [replace(family, O=Question(rows, family.O.query))], tok).failed
    assert f"{family.family_id}:O: object row 2 'ice cream'" in failed
