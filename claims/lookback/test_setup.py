"""Seed 003, "Language Models Use Lookbacks to Track Beliefs": the set-up anchors (§1–§4): the
seeded samples, one-token entities, and the positions every intervention writes.
"""
from __future__ import annotations

from claims.lookback.shared import SAMPLED, WRITES
from harness.claims import Holds, claim
from harness.criteria import Exact, NoneFailed, all_of
from harness.sources.lookback import positions, readouts, task


test_samples = claim("lookback.samples", readout=task.sample_summary,
    needs="cpu", guards=SAMPLED,
    statement="The seeded generators reproduce the notebook's worked example, eval split and binding row 0.",
    headline="eval split {own} own / {other} other; binding row 0 answers {binding_target}",
    published={"worked_example": [["Joe", "Ellen"], ["tun", "cup"], ["gin", "bourbon"]],
               "own": 104, "other": 96,
               "binding_row0": [["Diane", "Karen"], ["horn", "cup"], ["tea", "port"]],
               "binding_queried": 0, "binding_target": "port"},
    provenance="seed 003 notebook output, §1 (worked example), §2 (n=104/96), §4 (row 0)",
    criterion=all_of(Exact("worked_example"), Exact("own"), Exact("other"),
                     Exact("binding_row0"), Exact("binding_queried"), Exact("binding_target")))


test_single_token_entities = claim("lookback.single-token-entities", reads="lookback_single_tokens", readout=readouts.single_token_entities,
    needs="hub", guards=SAMPLED,
    statement="Every character, object and state is one token when preceded by a space.",
    headline="{characters} characters, {objects} objects, {states} states; all one token: {all_single_token}",
    published={"characters": 30, "objects": 18, "states": 21, "all_single_token": True},
    provenance="seed 003 notebook output, §1",
    criterion=all_of(Exact("characters"), Exact("objects"), Exact("states"),
                     Exact("all_single_token")),
    holds=Holds(NoneFailed()))


test_aligned_prompts = claim("lookback.aligned-prompts", reads="lookback_alignment", readout=readouts.aligned_prompts,
    needs="hub", guards=WRITES,
    statement="Every clean and counterfactual prompt has the same length and the same entity positions.",
    headline="length {length}, drinks at {drinks[0]} and {drinks[1]}; all aligned: {all_aligned}",
    published={"length": 181, "names": [131, 133, 146, 158], "objects": [150, 162],
               "drinks": [155, 167], "after_drinks": [156, 168], "opaque": [149, 161],
               "all_aligned": True},
    provenance="seed 003 notebook output, §4 (positions printed for build_binding row 0)",
    criterion=all_of(*(Exact(k) for k in ("length", "names", "objects", "drinks",
                                          "after_drinks", "opaque", "all_aligned"))),
    decisions=("positions are located by character offsets, not hard-coded; the check covers "
               "build_binding, build_source and build_answer, clean and counterfactual",
               "prompts are built as the profile builds them (the organism's drop the instruction)"),
    holds=Holds(Exact("all_aligned")))


test_intervention_tokens = claim("lookback.intervention-tokens", reads="lookback_intervention_tokens", readout=positions.InterventionTokens.readout,
    kind="anchor", section="4–6", needs="hub",
    guards=WRITES,
    statement="In every binding, source and answer prompt, each position an intervention writes holds that prompt's own one-token entity, '.'/'.\\n' after each drink, 'opaque', BOS first and ':' last.",
    headline="{after_drink_tokens[0]!r} and {after_drink_tokens[1]!r} after the drinks",
    published={"after_drink_tokens": [".", ".\n"]},
    provenance="seed 003 notebook output, §4 (positions 156 '.' and 168 '.\\n' printed for "
               "build_binding row 0); elsewhere its assumption that the literal indices "
               "(STATE_POS, OPAQUE_POS, CHAR_POS, OBJ_POS) fit every prompt",
    criterion=Exact("after_drink_tokens"),
    decisions=("positions are binding row 0's clean layout, as the notebook's literal indices "
               "are; every row of the three sets, clean and counterfactual, must hold its own "
               "entities there (names, containers, drinks), tokenised with BOS as the model "
               "reads them",
               "prompts are built as the profile builds them (the organism's drop the instruction)"),
    holds=Holds(NoneFailed()))
