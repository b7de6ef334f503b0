"""The tutorial's reference anchors (issue 49): its pair's behaviour, the differences In[8] prints
and the heatmap's cells equal those of In[3]-In[8] written again as plain code
(harness/sources/ioi_tutorial/reference.py)."""
from __future__ import annotations

from harness import reference
from harness.claims import claim
from harness.sources.patching.against_reference import RECORDED_DIFF, SWEEP_WHY

PROVENANCE = "issue 49: the tutorial's procedure written again as plain code, one forward per prompt"


test_behaviour_reference = claim("ioi_tutorial.behaviour-reference", reads="tutorial_behaviour_reference",
    section="In[8]", needs="hub",
    guards=("tutorial_runs", "tutorial_behaviour"),
    **reference.claim_fields(
        "Each prompt's top token and logit(' John') − logit(' Mary'), as recorded and as In[8] prints it, equal the plain reference's.",
        provenance=PROVENANCE))


test_sweep_reference = claim("ioi_tutorial.sweep-reference", reads="tutorial_sweep_reference",
    section="In[7]", needs="hub", guards=("tutorial_sweep",),
    **reference.claim_fields(
        "The heatmap, on every cell of the organism's and sampled layers × positions of GPT-2's, gives the plain reference's patched logit differences and their normalisation (patched − corrupted) / (clean − corrupted).",
        provenance=PROVENANCE, why=SWEEP_WHY), **RECORDED_DIFF)
