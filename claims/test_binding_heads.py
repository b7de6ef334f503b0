"""Seed 001, "Investigating Attention Heads in In-Context Retrieval": the `heads.*` rows carried so far.

The model-free and tokenizer anchors are here; the model rows need the Qwen2 organism (issue 5).
"""
from __future__ import annotations

from harness.claims import claim
from harness.criteria import Exact, all_of
from harness.tasks.box_lookup import MAIN, OPENING, binding_tables, generate_family, render


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


@claim("heads.main-example", kind="anchor", section="1", needs="hub",
       statement="Main family 0 renders with single-token labels; its prompt ends ' Answer', ':', the chat turn and 'Box'.",
       published={"first_row": ["stone", "V"], "last_row": ["train", "M"], "query": "brick",
                  "answer_L": "Y", "last8_ids": [21806, 25, 151645, 198, 151644, 77091, 198, 1611],
                  "last8_positions": [185, 186, 187, 188, 189, 190, 191, 192]},
       provenance="seed 001 notebook output, §1 (the printed table and token listing)",
       criterion=all_of(*(Exact(k) for k in ("first_row", "last_row", "query", "answer_L",
                                             "last8_ids", "last8_positions"))),
       decisions=("the main set keeps the objects that are one token with a leading space under "
                  "the profile's tokenizer, as the notebook filters under Qwen2.5's",))
def test_main_example(judge, heads_tokenizer):
    tok = heads_tokenizer
    family = generate_family(MAIN, 0, single_token=lambda w: len(
        tok.encode(" " + w, add_special_tokens=False)) == 1)
    rendered = render(family.O, tok)  # asserts single-token labels and the 'Box' extension
    n = len(rendered.input_ids)
    judge({"first_row": family.O.bindings[0], "last_row": family.O.bindings[-1],
           "query": family.O.query, "answer_L": family.O.answer,
           "last8_ids": rendered.input_ids[-8:], "last8_positions": list(range(n - 8, n)),
           "last8_tokens": tok.convert_ids_to_tokens(rendered.input_ids[-8:])})
