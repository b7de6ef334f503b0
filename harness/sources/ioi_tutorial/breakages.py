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
    """The identity, printed-line, readback, fire-once and reference anchors on the modules
    imported now; the readbacks, the position sweep and the heatmap's reference in both modes."""
    from harness.sources.ioi_tutorial import against_reference, experiments
    from harness.sources.patching import experiments as patching
    from harness.sources.patching import fire_once, readback

    pair = experiments.pair_ids(model, sizes)
    runs = patching.pair_runs(model, pair)

    def preferred() -> list[str]:
        found = readback.reversed_pairs({"tutorial": patching.behaviour(model, pair, runs)})
        return [f"{p}: clean not preferred" for p in found["reversed"]]

    def rows(batched: bool) -> Callable[[], list[str]]:
        return lambda: readback.solo_rows(model, pair, runs,
                                          patching.sweep(model, pair, runs, batched)).mismatched

    def behaviour() -> list[str]:
        return reference.failures(against_reference.behaviour(
            model, sizes, pair, runs, patching.behaviour(model, pair, runs)))

    def heatmap(batched: bool) -> Callable[[], list[str]]:
        return lambda: [f for c in against_reference.sweep(
            model, sizes, patching.sweep(model, pair, runs, batched)).values()
            for f in reference.failures(c)]

    def identity() -> list[str]:
        r = patching.full_patch_identity(model, pair, runs)
        return [f"layer {i}: not the clean logits"
                for i, ok in enumerate(r.equal_per_layer) if not ok]

    def printed_line() -> list[str]:
        r = experiments.notebook_line(model, pair, runs)
        return [f"layer {i}: the printed line ran" for i, e in enumerate(r.errors) if not e]

    return {
        "ioi_tutorial.full-patch-identity": identity,
        "ioi_tutorial.notebook-line": printed_line,
        "ioi_tutorial.clean-preferred": preferred,
        "ioi_tutorial.sweep-rows": rows(False),
        "ioi_tutorial.sweep-rows (fast mode)": rows(True),
        "ioi_tutorial.whole-stream-fires-once": lambda: failures(
            fire_once.whole_stream_fires(model, pair)),
        "ioi_tutorial.position-sweep-fires-once": lambda: failures(
            fire_once.position_sweep_fires(model, pair, batched=False)),
        "ioi_tutorial.position-sweep-fires-once (fast mode)": lambda: failures(
            fire_once.position_sweep_fires(model, pair, batched=True)),
        "ioi_tutorial.behaviour-reference": behaviour,
        "ioi_tutorial.sweep-reference": heatmap(False),
        "ioi_tutorial.sweep-reference (fast mode)": heatmap(True),
    }
