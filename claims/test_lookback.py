"""Seed 003, "Language Models Use Lookbacks to Track Beliefs": the `lookback.*` rows carried so far.

Only the model-free anchor is here yet; the model rows need the Llama organism (issue 4).
"""
from __future__ import annotations

import random

from harness.claims import claim
from harness.criteria import Exact, all_of
from harness.tasks.causal_tom import build_binding, build_eval, sample_entities


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
