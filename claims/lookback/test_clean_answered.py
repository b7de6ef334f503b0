"""Seed 003's behavioural anchors for the direction of §4's and §6's rates
(harness/sources/lookback/direction.py): the patched rows' clean (and, for §6's payload, the
counterfactual) runs answer what each rate assumes."""
from __future__ import annotations

from claims.lookback.shared import ANSWER_ANSWERED, BINDING_ANSWERED, BOUND, NB, REGISTER
from harness.claims import Holds, claim
from harness.criteria import Exact
from harness.sources.lookback import readouts

DECISIONS = ("the answers are the error filter's recorded ones (lookback.filter-readback re-runs "
             "a few alone), so the anchor adds no forward",
             "on rows forced past the filter (the rehearsal's random weights) it is not judged")


test_binding_clean_answered = claim(BINDING_ANSWERED, reads=("lookback_binding_rows", "lookback_binding_filter", "lookback_patched"), readout=readouts.binding_clean_answered,
    kind="anchor", section="4", guards=BOUND,
    statement="Each §4 patched row's clean run answers its clean answer, which is not the target: an IIA (answers equal to the target) then counts moves away from the model's own answer, and clean-answer survival counts none; the counterfactual's answer is the clean one here, so no rate reads a move toward it.",
    headline="{n} patched rows; wrong: {wrong}",
    published={"wrong": []}, provenance=NB.format(4) + ": error filtering keeps samples "
                                                      "answered correctly",
    criterion=Exact("wrong"), holds=Holds(Exact("wrong"), behavioural=True),
    decisions=DECISIONS)


test_answer_clean_answered = claim(ANSWER_ANSWERED, reads=("lookback_answer_rows", "lookback_answer_filter", "lookback_answer_patched"), readout=readouts.answer_clean_answered,
    kind="anchor", section="6", guards=("lookback_answer",),
    statement="Each §6 patched row's clean run answers its clean answer, which is neither the pointer target nor the payload, and its counterfactual run answers its own answer, which is the payload: the pointer rate then counts moves away from the clean answer and the payload rate moves toward the counterfactual's.",
    headline="{n} patched rows; wrong: {wrong}",
    published={"wrong": []}, provenance=REGISTER.format(6) + ": 102/140 kept",
    criterion=Exact("wrong"), holds=Holds(Exact("wrong"), behavioural=True),
    decisions=DECISIONS)
