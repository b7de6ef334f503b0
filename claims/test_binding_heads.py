"""Seed 001, "Investigating Attention Heads in In-Context Retrieval": the `heads.*` rows carried so far.

Only the model-free anchor is here yet; the model rows need the Qwen2 organism (issue 5).
"""
from __future__ import annotations

from harness.claims import claim
from harness.criteria import Exact, all_of
from harness.tasks.box_lookup import MAIN, OPENING, binding_tables, generate_family


@claim("heads.problem-sets", kind="anchor", section="1", needs="cpu",
       statement="sha256-seeded families reproduce opening family 0, and opening and main tables are disjoint.",
       published={"questions": {"R": ["cross", "O"], "D": ["machine", "L"], "O": ["machine", "Y"]},
                  "rows": {"4": [["machine", "Y"], ["camera", "J"]],
                           "6": [["dress", "K"], ["machine", "L"]],
                           "20": [["cross", "O"], ["game", "N"]]},
                  "disjoint": True},
       provenance="seed 001 notebook output, §2 (opening family 0's tables)",
       criterion=all_of(Exact("questions"), Exact("rows"), Exact("disjoint")),
       decisions=("the main set is drawn here with every object allowed (the tiny tokenizer makes "
                  "all single-token); under Qwen2.5 the single-token filter needs the tokenizer",))
def test_problem_sets(judge):
    family = generate_family(OPENING, 0)
    opening = [generate_family(OPENING, i) for i in range(8)]
    main = [generate_family(MAIN, i) for i in range(32)]
    rows = sorted({q.query_row for q in (family.R, family.D, family.O)})
    judge({"questions": {k: [q.query, q.answer] for k, q in
                         (("R", family.R), ("D", family.D), ("O", family.O))},
           "rows": {str(r): [family.R.bindings[r - 1], family.D.bindings[r - 1]] for r in rows},
           "disjoint": binding_tables(opening).isdisjoint(binding_tables(main))})
