"""Seed 004's experiment steps, declared once: the minimal pairs and every patching run."""
from __future__ import annotations

from operator import attrgetter

from harness.declared_steps import Step
from harness import interventions
from harness.reference import NEEDS_LOCAL_WEIGHTS as REFERENCE_WEIGHTS
from harness.sources.patching import experiments as patching
from harness.sources.patching import against_reference, fire_once, readback, tokens
from harness.sources.patching.crosscheck import seed_crosscheck
from harness.sources.patching.task import PAIRS

MODEL = "patching_model"
SEED = (MODEL, "seed_pair", "seed_runs")
IOI = (MODEL, "ioi_pair", "ioi_runs")
# The tokenizer's own checks: what their anchors judge, read off the tokenizer alone.
TOKENS = "the tokenizer's own checks, which their anchors judge: no forward, no write"

STEPS = (
    Step("patching_single_token_words", tokens.single_token_words, ("patching_tokenizer",),
         unguarded=TOKENS),
    Step("patching_aligned_pairs", tokens.aligned_pairs, ("patching_tokenizer",),
         unguarded=TOKENS),
    # The seed's pair ('John gave the book to' vs 'Mary ...'), and the corrected pair, whose
    # expected name is in context and whose corrupted run swaps the names.
    Step("seed_pair", patching.pair_ids, (MODEL,), given=PAIRS["seed"]),
    Step("ioi_pair", patching.pair_ids, (MODEL,), given=PAIRS["ioi"]),
    Step("seed_runs", patching.pair_runs, (MODEL, "seed_pair")),
    Step("ioi_runs", patching.pair_runs, (MODEL, "ioi_pair")),
    Step("patch_layer", attrgetter("patch_layer"), ("patching_sizes",),
         unguarded="the layer the profile's sizes declare: data, no computation"),
    Step("seed_full_patch", patching.full_patch_identity, SEED),
    Step("seed_hook_reference", patching.hook_reference, SEED,
         local_weights="the hook reference is a plain-PyTorch forward with a forward hook, which "
                       "needs the weights here; on NDIF they are not (no claim requires it)"),
    # Each patch declared once (harness.interventions); its anchors' steps derive from that.
    *interventions.steps("seed_whole_stream", fire_once.whole_stream, (MODEL, "seed_pair"),
                         ("fires", "identity")),
    *interventions.steps("seed_sweep", fire_once.position_sweep, (MODEL, "seed_pair"),
                         ("fires", "rows_alone"), batched=True),
    *interventions.steps("seed_layer_flip", fire_once.layer_flip_patch,
                         (MODEL, "seed_pair", "patch_layer"), ("fires",)),
    Step("seed_transformerlens", seed_crosscheck, ("profile", *SEED, "patch_layer"),
         local_weights="the TransformerLens cross-check loads GPT-2's weights here, and NDIF's "
                       "GPT-2 may run another dtype, so the two need not compute the same logits"),
    Step("seed_behaviour", patching.behaviour, SEED),
    Step("seed_layer_flip", patching.layer_flip, (*SEED, "patch_layer")),
    Step("seed_sweep", patching.sweep, SEED, batched=True),
    Step("ioi_behaviour", patching.behaviour, IOI),
    Step("ioi_sweep", patching.sweep, IOI, batched=True),
    Step("pair_behaviours", readback.by_pair, ("seed_behaviour", "ioi_behaviour")),
    Step("sweep_coverage", readback.sweep_coverage,
         (MODEL, "seed_pair", "seed_sweep", "ioi_pair", "ioi_sweep")),
    Step("sweep_rows", readback.sweep_rows, (*SEED, "seed_sweep", *IOI[1:], "ioi_sweep")),
    # Issue 49: each study's values on its pairs and cells against the plain reference's.
    Step("behaviour_reference", against_reference.behaviours,
         (MODEL, "seed_behaviour", "ioi_behaviour"), local_weights=REFERENCE_WEIGHTS),
    Step("layer_flip_reference", against_reference.layer_flips,
         (MODEL, "patch_layer", "seed_layer_flip", "ioi_pair", "ioi_runs"),
         local_weights=REFERENCE_WEIGHTS),
    Step("sweep_reference", against_reference.sweeps, (MODEL, "seed_sweep", "ioi_sweep"),
         local_weights=REFERENCE_WEIGHTS),
)
