"""Seed 004's anchors derived from its declared patches (harness.interventions): the
whole-stream patch, the (layer, position) sweep and the seed's own layer patch, run through the
experiment's functions, write the clean run's block output exactly where asked (harness.fire_once;
seed 000 §6's pattern); the whole-stream patch on the corrupted prompt's own values is the
identity, and the sweep's rows hold alone."""
from __future__ import annotations

from claims.patching.shared import PATCHES, SWEEPS
from harness.claims import claim
from harness import identity_check, rows_alone
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


test_whole_stream_identity = claim("patching.whole-stream-identity", reads="seed_whole_stream_identity",
    section="code cell", needs="hub",
    **identity_check.claim_fields("The whole-stream patch run with the corrupted prompt as its own clean one writes every position's own value at each block, and leaves every block and the logits bit-identical to the unpatched run.",
                                  "the suite's identity rule, seed 003 §4's self-patch derived from the whole-stream patch's declared sites"),
    guards=PATCHES, decisions=PAIR[:1] + ("the corrupted prompt's whole stream written back into itself at each block, one forward per block", "the sweep has no identity of its own: fast mode writes values read alone into a batch, no identity to the bit; its rows are checked alone"))


test_position_sweep_rows_alone = claim("patching.position-sweep-rows-alone", reads="seed_sweep_rows_alone",
    section="code cell", needs="hub",
    **rows_alone.claim_fields("The first, middle and last row of each forward of the sweep, run as one plain forward of its own prompt with its own patch, gives the logits it gave in the sweep.",
                              "the suite's batched-row rule (issue 36), derived from the sweep's declared sites"),
    guards=SWEEPS, decisions=("fast mode's one forward per block, a row per position, checked at its first, middle and last row; faithful mode's one-row forwards each at its row",))
