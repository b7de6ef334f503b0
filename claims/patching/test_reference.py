"""Seed 004's reference anchors (issue 49): each study's numbers on its pairs and cells equal those
of the code cell written again as plain code (harness/sources/patching/reference.py)."""
from __future__ import annotations

from claims.patching.shared import SWEEPS
from harness import reference
from harness.claims import claim
from harness.sources.patching.against_reference import RECORDED_DIFF, SWEEP_WHY

PROVENANCE = "issue 49: the seed's procedure written again as plain code, one forward per prompt"


test_behaviour_reference = claim("patching.behaviour-reference", reads="behaviour_reference",
    section="code cell", needs="hub",
    guards=("seed_behaviour", "ioi_behaviour"),
    **reference.claim_fields(
        "Each pair's top token and logit difference (clean name − corrupted name), after each prompt, equal the plain reference's.",
        provenance=PROVENANCE))


test_layer_flip_reference = claim("patching.layer-flip-reference", reads="layer_flip_reference",
    section="code cell", needs="hub",
    guards=("seed_layer_flip",),
    **reference.claim_fields(
        "The seed's layer patch at the differing positions (on its pair at its layer, and on the IOI pair at sampled blocks) gives the plain reference's logit differences, normalisation, top token and flags.",
        provenance=PROVENANCE))


test_sweep_reference = claim("patching.sweep-reference", reads="sweep_reference",
    section="code cell", needs="hub", guards=SWEEPS,
    **reference.claim_fields(
        "Each pair's layer × position sweep, on every cell of the organism's and sampled blocks × positions of GPT-2's, gives the plain reference's logit differences and their normalisation (patched − corrupted) / (clean − corrupted).",
        provenance=PROVENANCE, why=SWEEP_WHY), **RECORDED_DIFF)
