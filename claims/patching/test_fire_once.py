"""Seed 004's fire-once anchors: the whole-stream patch, the (layer, position) sweep and the
seed's own layer patch, run through the experiment's functions, write the clean run's block
output exactly where asked (harness.fire_once; seed 000 §6's pattern)."""
from __future__ import annotations

from claims.patching.shared import PATCHES, SWEEPS
from harness.claims import claim
from harness.fire_once import claim_fields

RULE = "the suite's fire-once rule, seed 000 §6's second prerequisite applied to seed 004"
PAIR = ("run on the seed's pair; a patch where clean and corrupted already agree (positions "
        "before the name) is checked but cannot show a write, so it need not move the output",)


test_whole_stream_fires_once = claim("patching.whole-stream-fires-once", reads="seed_whole_stream_fires",
    section="code cell", needs="hub",
    **claim_fields("The whole-stream patch at block L writes the clean run's every position there, in its own forward, and nothing upstream.",
                   RULE),
    guards=PATCHES, decisions=PAIR)


test_position_sweep_fires_once = claim("patching.position-sweep-fires-once", reads="seed_sweep_fires",
    section="code cell", needs="hub",
    **claim_fields("The layer × position sweep writes one clean value per (block, position), in the forward (or batch row) the mode gives it, and nothing else.",
                   RULE),
    guards=SWEEPS, decisions=PAIR + ("fast mode's batched sweep is checked row by row",))


test_layer_flip_fires_once = claim("patching.layer-flip-fires-once", reads="seed_layer_flip_fires",
    section="code cell", needs="hub",
    **claim_fields("The seed's patch writes the clean run's block-L values at the positions where the prompts differ, and nothing else.",
                   RULE),
    guards=("seed_layer_flip",), decisions=PAIR)
