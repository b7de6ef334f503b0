"""The tutorial's breakage catalogue (harness.catalogue): edits of its own module, and of the batched
sweep and logit difference it reads from seed 004's, that its anchors must catch on its own pair;
seed 004's patches are broken by seed 004's catalogue."""
from __future__ import annotations

from typing import Callable

from harness import reference
from harness.catalogue import Breakage, Checks, Part
from harness.fire_once import failures
from harness.models.loaded import Loaded

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


def checks(model: Loaded, sizes) -> Checks:
    """The identity, printed-line, readback, fire-once and reference anchors, each reading its
    declared step (steps.py) on the modules imported now, each step run once; the readbacks, the
    position sweep and the heatmap's reference in both modes, on one pair and its runs."""
    from harness.declared_steps import Resolved
    from harness.sources.ioi_tutorial.steps import MODEL, STEPS
    from harness.sources.patching import readback

    faithful = Resolved(STEPS, {MODEL: model, "ioi_tutorial_sizes": sizes})
    fast = Resolved(STEPS, {MODEL: model, "ioi_tutorial_sizes": sizes,
                            **{k: faithful[k] for k in ("tutorial_pair", "tutorial_runs")}},
                    batched=True)

    def preferred() -> list[str]:
        found = readback.reversed_pairs({"tutorial": faithful["tutorial_behaviour"]})
        return [f"{p}: clean not preferred" for p in found["reversed"]]

    def identity() -> list[str]:
        return [f"layer {i}: not the clean logits" for i, ok in
                enumerate(faithful["tutorial_full_patch"].equal_per_layer) if not ok]

    def printed_line() -> list[str]:
        return [f"layer {i}: the printed line ran" for i, e in
                enumerate(faithful["tutorial_notebook_line"].errors) if not e]

    def heatmap(run: Resolved) -> Callable[[], list[str]]:
        return lambda: [f for c in run["tutorial_sweep_reference"].values()
                        for f in reference.failures(c)]

    return {
        "ioi_tutorial.full-patch-identity": identity,
        "ioi_tutorial.notebook-line": printed_line,
        "ioi_tutorial.clean-preferred": preferred,
        "ioi_tutorial.sweep-rows": lambda: faithful["tutorial_sweep_rows"].mismatched,
        "ioi_tutorial.sweep-rows (fast mode)": lambda: fast["tutorial_sweep_rows"].mismatched,
        "ioi_tutorial.whole-stream-fires-once": lambda: failures(
            faithful["tutorial_whole_stream_fires"]),
        "ioi_tutorial.position-sweep-fires-once": lambda: failures(
            faithful["tutorial_sweep_fires"]),
        "ioi_tutorial.position-sweep-fires-once (fast mode)": lambda: failures(
            fast["tutorial_sweep_fires"]),
        "ioi_tutorial.behaviour-reference": lambda: reference.failures(
            faithful["tutorial_behaviour_reference"]),
        "ioi_tutorial.sweep-reference": heatmap(faithful),
        "ioi_tutorial.sweep-reference (fast mode)": heatmap(fast),
    }
