"""Seed 003, "Language Models Use Lookbacks to Track Beliefs": the `lookback.*` rows carried so far.

The model-free and tokenizer anchors are here; the model rows need the Llama organism (issue 4).
"""
from __future__ import annotations

import random

from harness.claims import claim
from harness.criteria import Exact, all_of
from harness.tasks.causal_tom import (CHARACTERS, OBJECTS, STATES, build_answer, build_binding,
                                      build_eval, build_source, layout, sample_entities)


@claim("lookback.samples", kind="anchor", section="1–4", needs="cpu",
       statement="The seeded generators reproduce the notebook's worked example, eval split and binding row 0.",
       published={"worked_example": [["Joe", "Ellen"], ["tun", "cup"], ["gin", "bourbon"]],
                  "own": 104, "other": 96,
                  "binding_row0": [["Diane", "Karen"], ["horn", "cup"], ["tea", "port"]],
                  "binding_queried": 0, "binding_target": "port"},
       provenance="seed 003 notebook output, §1 (worked example), §2 (n=104/96), §4 (row 0)",
       criterion=all_of(Exact("worked_example"), Exact("own"), Exact("other"),
                        Exact("binding_row0"), Exact("binding_queried"), Exact("binding_target")))
def test_samples(judge):
    rows = build_eval(200, seed=0)
    row0 = build_binding(120, seed=7)[0]
    judge({"worked_example": [list(x) for x in sample_entities(random.Random(0))],
           "own": sum(r.own for r in rows), "other": sum(not r.own for r in rows),
           "binding_row0": [list(x) for x in row0.entities], "binding_queried": row0.queried,
           "binding_target": row0.target})


@claim("lookback.single-token-entities", kind="anchor", section="1", needs="hub",
       statement="Every character, object and state is one token when preceded by a space.",
       published={"characters": 30, "objects": 18, "states": 21, "all_single_token": True},
       provenance="seed 003 notebook output, §1",
       criterion=all_of(Exact("characters"), Exact("objects"), Exact("states"),
                        Exact("all_single_token")))
def test_single_token_entities(judge, lookback_tokenizer):
    def single(pool):
        return [w for w in pool if len(lookback_tokenizer.encode(" " + w, add_special_tokens=False)) == 1]

    pools = {"characters": CHARACTERS, "objects": OBJECTS, "states": STATES}
    multi = {k: sorted(set(v) - set(single(v))) for k, v in pools.items()}
    assert not any(multi.values()), multi
    judge({**{k: len(single(v)) for k, v in pools.items()},
           "all_single_token": not any(multi.values())})


@claim("lookback.aligned-prompts", kind="anchor", section="4", needs="hub",
       statement="Every clean and counterfactual prompt has the same length and the same entity positions.",
       published={"length": 181, "names": [131, 133, 146, 158], "objects": [150, 162],
                  "drinks": [155, 167], "after_drinks": [156, 168], "opaque": [149, 161],
                  "all_aligned": True},
       provenance="seed 003 notebook output, §4 (positions printed for build_binding row 0)",
       criterion=all_of(*(Exact(k) for k in ("length", "names", "objects", "drinks",
                                             "after_drinks", "opaque", "all_aligned"))),
       decisions=("positions are located by character offsets, not hard-coded; the check covers "
                  "build_binding, build_source and build_answer, clean and counterfactual",))
def test_aligned_prompts(judge, lookback_tokenizer):
    rows = [*build_binding(120, seed=7), *build_source(120, seed=11), *build_answer(140, seed=13)]
    layouts = [layout(lookback_tokenizer, text, *ents) for r in rows
               for text, ents in ((r.clean, r.entities), (r.cf, r.cf_entities))]
    first = layouts[0]
    misaligned = [i for i, lay in enumerate(layouts) if lay != first]
    assert not misaligned, f"{len(misaligned)} of {len(layouts)} prompts differ from row 0's layout"
    judge({**vars(first), "all_aligned": not misaligned, "prompts_checked": len(layouts)})
