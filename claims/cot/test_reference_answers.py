"""Seed 000's reference anchors for §1–§5 (issue 49): each study's recorded values against the
notebook's procedure written again as plain code (harness/sources/cot/reference_answers.py), so a
study computing the wrong quantity with sound machinery blocks its findings."""
from __future__ import annotations

from harness import reference
from harness.claims import claim
from harness.sources.cot.against_reference_answers import DECODED, PREFERENCE

PROVENANCE = ("issue 49: the seed's §{} written again as plain code, one prompt at a time through "
              "plain forwards of the transformers module; every row on the organisms, the first, "
              "a middle and the last elsewhere")
NO_FORWARD = "exactly: a reading of the study's own decoded traces, no forward"


def anchor(id: str, section: str, guards: tuple[str, ...], statement: str, why: str = DECODED,
           *, reads: str):
    """A reference anchor reading its comparison `reads` and guarding `guards`, the seed's
    `section`."""
    return claim(id, section=section, guards=guards, reads=reads,
                 **reference.claim_fields(statement, provenance=PROVENANCE.format(section), why=why))


test_baseline_reference = anchor("cot.baseline-reference", "1", ("cot_baseline",),
                                 "§1's greedy traces, where each closes its block and what it answers, and the problem count (on the organisms its printed totals too) are the plain reference's.", reads="cot_baseline_reference")


test_usable_reference = anchor("cot.usable-reference", "1", ("cot_usable", "cot_first_trace"),
                               "§1's filter keeps the traces that close their block and answer a*b+c, each with its first product statement, and the first kept trace, as the plain reference reads them.",
                               NO_FORWARD, reads="cot_usable_reference")


test_spanned_reference = anchor("cot.spanned-reference", "3", ("cot_spanned",),
                                "The kept traces that state their product inside the block, and where they first do, are the plain reference's.",
                                NO_FORWARD, reads="cot_spanned_reference")


test_restatements_reference = anchor("cot.restatements-reference", "1", ("cot_restatements",),
                                     "§1's counts of the product and the answer in and after each block are the plain reference's.",
                                     NO_FORWARD, reads="cot_restatements_reference")


test_early_reference = anchor("cot.early-reference", "2", ("cot_early",),
                              "§2's forced rows (each block cut at its fraction) and their answers, the fractions and (on the organisms) the curve's totals are the plain reference's.", reads="cot_early_reference")


test_last_answer_reference = anchor("cot.last-answer-reference", "4", ("cot_last_answer",),
                                    "§4's splice at the last stated answer, its control and corrupted forced answers and which traces are scored are the plain reference's.", reads="cot_last_answer_reference")


test_full_corruption_reference = anchor("cot.full-corruption-reference", "4", ("cot_full_corruption",),
                                        "§4's verbatim and fully corrupted blocks and their forced answers are the plain reference's.", reads="cot_full_corruption_reference")


test_cut_probe_reference = anchor("cot.cut-probe-reference", "5", ("cot_cut_probe",),
                                  "§5's cut at the first product statement, its spliced true and corrupted products and their forced answers are the plain reference's.", reads="cot_cut_probe_reference")


test_preference_reference = anchor("cot.preference-reference", "3", ("cot_preference",),
                                   "The log-probabilities of the true and the corrupted product at each first product statement are the plain reference's.",
                                   PREFERENCE.why, reads="cot_preference_reference")
