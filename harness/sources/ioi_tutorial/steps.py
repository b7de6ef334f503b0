"""The tutorial's steps (activation_patching.ipynb In[3]-In[8]): its pair, seed 004's runs on it, and
its patch line as printed."""
from __future__ import annotations

from harness.declared_steps import Step
from harness import interventions
from harness.reference import NEEDS_LOCAL_WEIGHTS as REFERENCE_WEIGHTS
from harness.sources.ioi_tutorial import against_reference, experiments
from harness.sources.patching import experiments as patching
from harness.sources.patching import fire_once, readback

MODEL = "ioi_tutorial_model"
PAIR = (MODEL, "tutorial_pair", "tutorial_runs")

STEPS = (
    Step("tutorial_pair", experiments.pair_ids, (MODEL, "ioi_tutorial_sizes")),
    Step("tutorial_runs", patching.pair_runs, (MODEL, "tutorial_pair")),
    Step("tutorial_sweep", patching.sweep, PAIR, batched=True),
    Step("tutorial_behaviour", patching.behaviour, PAIR),
    Step("tutorial_sweep_rows", readback.solo_rows, (*PAIR, "tutorial_sweep")),
    Step("tutorial_full_patch", patching.full_patch_identity, PAIR),
    Step("tutorial_notebook_line", experiments.notebook_line, PAIR),
    *interventions.steps("tutorial_whole_stream", fire_once.whole_stream, (MODEL, "tutorial_pair"),
                         ("fires", "identity")),
    *interventions.steps("tutorial_sweep", fire_once.position_sweep, (MODEL, "tutorial_pair"),
                         ("fires", "rows_alone"), batched=True),
    # Issue 49: the behaviour, the printed differences and the heatmap against the plain reference.
    Step("tutorial_behaviour_reference", against_reference.behaviour,
         (MODEL, "ioi_tutorial_sizes", "tutorial_pair", "tutorial_runs", "tutorial_behaviour"),
         local_weights=REFERENCE_WEIGHTS),
    Step("tutorial_sweep_reference", against_reference.sweep,
         (MODEL, "ioi_tutorial_sizes", "tutorial_sweep"), local_weights=REFERENCE_WEIGHTS),
)
