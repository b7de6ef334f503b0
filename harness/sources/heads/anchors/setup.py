"""Seed 001 §1's set-up anchors: opening family 0's tables, set disjointness, main family 0's prompt."""
from __future__ import annotations

from typing import Any, Callable

from harness.sources.heads.task import (OBJECTS, OPENING, ProblemSets, binding_tables,
                                        generate_family, render)


def opening_tables() -> dict[str, Any]:
    """§2's printout of opening family 0: each question's object and answer, and the R and D
    rows at every queried row."""
    family = generate_family(OPENING, 0)
    rows = sorted({q.query_row for q in (family.R, family.D, family.O)})
    return {"questions": {k: [q.query, q.answer] for k, q in
                          (("R", family.R), ("D", family.D), ("O", family.O))},
            "rows": {str(r): [family.R.bindings[r - 1], family.D.bindings[r - 1]] for r in rows}}


def disjointness(sets: ProblemSets, single_token: Callable[[str], bool]) -> dict[str, Any]:
    """§1's assertion that no R or D table is shared, with the set sizes and the filter's reach."""
    return {"disjoint": binding_tables(sets.opening).isdisjoint(binding_tables(sets.main)),
            "opening": len(sets.opening), "main": len(sets.main),
            "single_token_objects": sum(map(single_token, OBJECTS)), "objects": len(OBJECTS)}


def main_example(sets: ProblemSets, tok) -> dict[str, Any]:
    """§1's printout of main family 0: its table's ends, question, answer and last eight tokens
    (rendering asserts single-token labels and the 'Box' extension)."""
    family = sets.main[0]
    rendered = render(family.O, tok)
    n = len(rendered.input_ids)
    return {"first_row": family.O.bindings[0], "last_row": family.O.bindings[-1],
            "query": family.O.query, "answer_L": family.O.answer,
            "last8_ids": rendered.input_ids[-8:], "last8_positions": list(range(n - 8, n)),
            "last8_tokens": tok.convert_ids_to_tokens(rendered.input_ids[-8:])}
