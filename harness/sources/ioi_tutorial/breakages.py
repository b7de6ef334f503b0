"""The tutorial's breakage catalogue (harness.catalogue): edits of its own module, and of the batched
sweep and logit difference it reads from seed 004's, that its anchors must catch on its own pair;
seed 004's patches are broken by seed 004's catalogue."""
from __future__ import annotations

from harness.anchor_checks import Checked
from harness.breakage_edit import Breakage, Part

E = "harness.sources.ioi_tutorial.experiments"
R = "harness.sources.ioi_tutorial.readouts"
SEED_004 = "harness.sources.patching.experiments"
NORMALISED = "norm = [[round((r - ld_corrupt) / span, 4) if span else None for r in row] for row in raw]"
PRINTED_LINE = "h[layer].output[layer][:, position, :] = source[:, position, :]"

BREAKAGES = (
    Breakage("the printed line repaired: it indexes no batch row", "wrong row", E, PRINTED_LINE,
             "h[layer].output[:, position, :] = source[:, position, :]"),
    Breakage("the printed line writes nothing", "write nothing", E, PRINTED_LINE,
             "_ = source[:, position, :]"),
    Breakage("the corrupted prompt tokenised from the clean one", "wrong source", E,
             "for p in (sizes.clean, sizes.corrupted))", "for p in (sizes.clean, sizes.clean))",
             part=Part.STUDY),
    Breakage("the batched sweep reads its rows reversed", "wrong row", SEED_004,
             "logits = lm_head.output[:, -1].save()", "logits = lm_head.output.flip(0)[:, -1].save()",
             part=Part.BATCHING),
    Breakage("the logit difference of the wrong sign", "wrong sign", SEED_004,
             "return float(logits[pair.clean_name] - logits[pair.corrupted_name])",
             "return float(logits[pair.corrupted_name] - logits[pair.clean_name])",
             part=Part.READOUT),
    # Issue 49: the right patches read into the wrong quantity, which only a reference sees.
    Breakage("the heatmap normalised against swapped ends", "swapped ends", SEED_004, NORMALISED,
             NORMALISED.replace("(r - ld_corrupt) / span", "(r - ld_clean) / (ld_corrupt - ld_clean)"),
             part=Part.STUDY),
    Breakage("the heatmap normalised from the clean run's baseline", "wrong baseline", SEED_004,
             NORMALISED, NORMALISED.replace("(r - ld_corrupt) / span", "(r - ld_clean) / span"),
             part=Part.STUDY),
    Breakage("the printed corrupted difference read from the clean run", "wrong run", R,
             '"corrupted_logit_diff": logit_diff(runs.corrupted, pair)}',
             '"corrupted_logit_diff": logit_diff(runs.clean, pair)}', part=Part.READOUT),
)


# The anchors whose checks run after each breakage (harness.anchor_checks), in the order tried:
# each judged by its own holds on the declared steps, and again in fast mode where it reads a
# batched step.
ANCHORS = (Checked((
    "ioi_tutorial.full-patch-identity", "ioi_tutorial.notebook-line",
    "ioi_tutorial.clean-preferred", "ioi_tutorial.sweep-rows",
    "ioi_tutorial.whole-stream-fires-once", "ioi_tutorial.position-sweep-fires-once",
    "ioi_tutorial.whole-stream-identity", "ioi_tutorial.position-sweep-rows-alone",
    "ioi_tutorial.behaviour-reference", "ioi_tutorial.sweep-reference")),)
