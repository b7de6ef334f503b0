"""Seed 000's decode-loop fire-once anchors: the §6 audit's bump (beside cot.fire-once, the audit
itself), the §6 noise and the §7 vector writes, run through the experiment's own edits, write
exactly their sites at their steps (harness.fire_once); the noise edit adding zeros is the
identity (harness.interventions)."""
from __future__ import annotations

from claims.cot.shared import NB, PATCHED
from harness.claims import claim
from harness import identity_check
from harness.fire_once import claim_fields

RULE = "the suite's fire-once rule: " + NB.format("6") + "'s fire-once audit, applied to §{}"
PROMPTS = ("decodes the first 2 problems' prompts, whatever the model answers: it needs no "
           "behaviour, so it holds on random weights too",
           "two steps are decoded after the last write, where nothing may be written")


test_bump_fires_once = claim("cot.bump-fires-once", reads="cot_bump_fires",
    section="6",
    **claim_fields("The §6 audit's bump adds its value on dimension 0 at the anchor layer's last position at its one step, and nothing else.",
                   RULE.format(6)),
    guards=PATCHED, decisions=("decodes the first problem's prompt through the audit's own "
                               "decode, whatever the model answers",
                               "the bump is declared here (its size on dimension 0, zero "
                               "elsewhere), not read off the audit's tensor; the audit itself, "
                               "which reads dimension 0 only, is cot.fire-once"))


test_noise_fires_once = claim("cot.noise-fires-once", reads="cot_noise_fires",
    section="6",
    **claim_fields("The §6 noise edit adds its vector at the anchor layer's last position of each row at exactly the steps of its arm.",
                   RULE.format(6)),
    guards=("cot_specificity",), decisions=PROMPTS + ("arms (1, 1) and (0, 2): one step, and three from "
                                         "the prefill",))


test_noise_identity = claim("cot.noise-identity", reads="cot_noise_identity",
    section="6",
    **identity_check.claim_fields("The §6 noise edit adding zeros, at the same steps of the same arms, leaves every block of every decode step and the logits bit-identical to the unedited decode.",
                                  "the suite's identity rule, seed 003 §4's self-patch derived from §6's declared noise sites (beside cot.noop-every-step, the seed's own no-op)"),
    guards=("cot_specificity",), decisions=PROMPTS + ("arms (1, 1) and (0, 2): one step, and three from "
                                         "the prefill",))


test_vector_write_fires_once = claim("cot.vector-write-fires-once", reads="cot_vector_fires",
    section="7",
    **claim_fields("The §7 patch writes each row's vector at the patch layer's last position for its first 3 steps, and at no later step.",
                   RULE.format(7)),
    guards=PATCHED, decisions=PROMPTS + ("the vectors are seeded normal draws at the "
                                         "self-patch layer",))
