"""Seed 000's reference anchors for §3 and §7 (issue 49): each study's values, on its sampled rows
(every row on the organisms), equal those of the notebook's procedure written again as plain
code, one prompt at a time through plain transformers forwards and forward hooks
(harness/sources/cot/reference_mistakes.py, reference_patching.py), so that a study computing the
wrong quantity (a splice one token off, a comparison against the wrong run, a screen writing the
wrong run's residuals) blocks its findings rather than reading as not replicated."""
from __future__ import annotations

from claims.cot.shared import NB
from harness import reference
from harness.claims import claim
from harness.sources.cot.reference_plain import WHY

PROVENANCE = "issue 49: " + NB + ", its procedure written again as plain code"
SAMPLED = (WHY + "; rows: every spanned trace on the organisms, else the first, a middle and the "
           "last (harness.reference.sampled)")
PAIRED = WHY + "; rows: every pair (eight at most, so every one is harness.reference's sample)"


test_splice_reference = claim("cot.splice-reference", reads="cot_splice_reference",
    section="3", guards=("cot_splice",),
    **reference.claim_fields(
        "§3's splice control, on its sampled traces, splices where and what the plain "
        "reference splices, decodes its greedy continuation and compares it with the "
        "baseline's next tokens as the reference does.",
        provenance=PROVENANCE.format(3), why=SAMPLED))


test_mistake_reference = claim("cot.mistake-reference", reads="cot_mistake_reference",
    section="3",
    guards=("cot_single_mistake", "cot_rederivation", "cot_cues"),
    **reference.claim_fields(
        "§3's single mistake, its rederivation counts and its cue counts, on their sampled "
        "traces, are the plain reference's: the same corrupted splice, greedy continuation, "
        "answer, product counts and cues (its baseline window included), and on every row "
        "the same totals.",
        provenance=PROVENANCE.format(3), why=SAMPLED))


test_patching_reference = claim("cot.patching-reference", reads="cot_patching_reference",
    section="7",
    guards=("cot_pairs", "cot_screen", "cot_continuations"),
    **reference.claim_fields(
        "§7's pairs, layer screen and continuations, on every pair, are the plain "
        "reference's: the same donors, donor traces and residuals, the number each screened "
        "layer's donor patch writes, the summary and best layer, and each condition's "
        "continuation and rates at that layer.",
        provenance=PROVENANCE.format(7), why=PAIRED))
