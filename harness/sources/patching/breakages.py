"""Seed 004's breakage catalogue (harness.catalogue): edits of the patches that its anchors
must catch, and the anchor checks run after each."""
from __future__ import annotations

from functools import cache
from typing import Callable

import harness.reference
from harness.catalogue import Breakage, Checks, Part
from harness.fire_once import failures
from harness.models.loaded import Loaded
from harness.reference import Comparison

E = "harness.sources.patching.experiments"
NORMALISED = "norm = [[round((r - ld_corrupt) / span, 4) if span else None for r in row] for row in raw]"
POSITION_WRITE = "out[:, positions, :] = source[:, positions, :].to(out.device)"

BREAKAGES = (
    Breakage("position patch writes nothing", "write nothing", E, POSITION_WRITE,
             "_ = source[:, positions, :]"),
    Breakage("position patch one position early", "wrong position", E, POSITION_WRITE,
             "out[:, [p - 1 for p in positions], :] = source[:, positions, :].to(out.device)"),
    Breakage("the differing positions one early", "wrong position", E,
             "return [i for i, (a, b) in enumerate(zip(self.clean, self.corrupted)) if a != b]",
             "return [i - 1 for i, (a, b) in enumerate(zip(self.clean, self.corrupted)) if a != b]"),
    Breakage("whole-stream patch one block early", "wrong layer", E,
             "h[layer].output[:] = source", "h[max(layer - 1, 0)].output[:] = source"),
    Breakage("whole-stream patch of zero size", "zero size", E,
             "h[layer].output[:] = source", "h[layer].output[:] = source * 0"),
    Breakage("batched sweep writes the wrong rows", "wrong row", E,
             "out[rows, rows, :] = source[0].to(out)", "out[rows.flip(0), rows, :] = source[0].to(out)",
             part=Part.BATCHING),
    Breakage("batched sweep writes one block late", "wrong layer", E,
             "block, lm_head = blocks(model)[layer], model.nn.lm_head",
             "block, lm_head = blocks(model)[min(layer + 1, n_layers(model) - 1)], model.nn.lm_head",
             part=Part.BATCHING),
    Breakage("batched sweep reads its rows reversed", "wrong row", E,
             "logits = lm_head.output[:, -1].save()", "logits = lm_head.output.flip(0)[:, -1].save()",
             part=Part.BATCHING),
    Breakage("logit difference of the wrong sign", "wrong sign", E,
             "return float(logits[pair.clean_name] - logits[pair.corrupted_name])",
             "return float(logits[pair.corrupted_name] - logits[pair.clean_name])",
             part=Part.READOUT),
    Breakage("sweep reads the next position's cell", "wrong position", E,
             "pair) for pos in positions]", "pair) for pos in positions[1:] + positions[:1]]",
             part=Part.READOUT),
    Breakage("sweep stops a block short", "coverage", E,
             "layers, positions = list(range(n_layers(model))), list(range(len(pair.corrupted)))",
             "layers, positions = list(range(n_layers(model) - 1)), list(range(len(pair.corrupted)))",
             part=Part.STUDY),
    Breakage("sweep skips the last position", "coverage", E,
             "layers, positions = list(range(n_layers(model))), list(range(len(pair.corrupted)))",
             "layers, positions = list(range(n_layers(model))), list(range(len(pair.corrupted) - 1))",
             part=Part.STUDY),
    Breakage("the clean cache is read from the corrupted prompt", "wrong source", E,
             "cache, clean = clean_cache(model, pair.clean)",
             "cache, clean = clean_cache(model, pair.corrupted)", part=Part.STUDY),
    Breakage("sweep copies the clean value of the block before", "wrong layer", E,
             "raw = [[logit_diff(patched_logits(model, pair.corrupted, layer, [pos], runs.cache[layer]),",
             "raw = [[logit_diff(patched_logits(model, pair.corrupted, layer, [pos], runs.cache[max(layer - 1, 0)]),"),
    # Issue 49: the right patches read into the wrong quantity, which only a reference sees.
    Breakage("the sweep normalised against swapped ends", "swapped ends", E, NORMALISED,
             NORMALISED.replace("(r - ld_corrupt) / span", "(r - ld_clean) / (ld_corrupt - ld_clean)"),
             part=Part.STUDY),
    Breakage("the sweep normalised from the clean run's baseline", "wrong baseline", E, NORMALISED,
             NORMALISED.replace("(r - ld_corrupt) / span", "(r - ld_clean) / span"), part=Part.STUDY),
    Breakage("the layer flip compares the patched run with the clean run", "wrong run", E,
             "ld[1] > ld[0]", "ld[1] > ld[2]", part=Part.STUDY),
    Breakage("the clean prompt's top token read from the corrupted run", "wrong run", E,
             "Behaviour(top(runs.clean), top(runs.corrupted)",
             "Behaviour(top(runs.corrupted), top(runs.corrupted)", part=Part.READOUT),
    Breakage("the batched sweep copies the clean value of the block before", "wrong layer", E,
             "position_sweep_logits(model, pair.corrupted, layer, runs.cache[layer])",
             "position_sweep_logits(model, pair.corrupted, layer, runs.cache[max(layer - 1, 0)])",
             part=Part.BATCHING),
)


def checks(model: Loaded, sizes) -> Checks:
    """The identity, hook-reference, fire-once, readback and reference anchors, on the module
    objects imported now; the readbacks and the sweeps' reference in both modes."""
    from harness.sources.patching import against_reference, experiments, fire_once, readback
    from harness.sources.patching import task as ioi

    pair = experiments.pair_ids(model, *ioi.PAIRS["seed"])
    runs = cache(lambda: experiments.pair_runs(model, pair))
    sweeps = cache(lambda batched: experiments.sweep(model, pair, runs(), batched))
    ioi_pair = experiments.pair_ids(model, *ioi.PAIRS["ioi"])
    ioi_runs = cache(lambda: experiments.pair_runs(model, ioi_pair))

    def preferred() -> list[str]:
        found = readback.reversed_pairs({"seed": experiments.behaviour(model, pair, runs())})
        return [f"{name}: the clean run's logit difference does not exceed the corrupted run's"
                for name in found["reversed"]]

    def coverage(batched: bool) -> Callable[[], list[str]]:
        return lambda: readback.coverage_gaps(model, pair, sweeps(batched))

    def rows(batched: bool) -> Callable[[], list[str]]:
        return lambda: readback.solo_rows(model, pair, runs(), sweeps(batched)).mismatched

    def identity() -> list[str]:
        r = experiments.full_patch_identity(model, pair, experiments.pair_runs(model, pair))
        return [f"layer {i}: not the clean logits" for i, ok in enumerate(r.equal_per_layer) if not ok]

    def agrees(found: dict[str, Comparison]) -> list[str]:
        return [f for c in found.values() for f in harness.reference.failures(c)]

    def study_sweeps(batched: bool) -> Callable[[], list[str]]:
        return lambda: agrees(against_reference.sweeps(
            model, sweeps(batched), experiments.sweep(model, ioi_pair, ioi_runs(), batched)))

    def behaviours() -> list[str]:
        return agrees(against_reference.behaviours(
            model, experiments.behaviour(model, pair, runs()),
            experiments.behaviour(model, ioi_pair, ioi_runs())))

    def flips() -> list[str]:
        layer = sizes.patch_layer
        return agrees(against_reference.layer_flips(
            model, layer, experiments.layer_flip(model, pair, runs(), layer), ioi_pair, ioi_runs()))

    def reference() -> list[str]:
        r = experiments.hook_reference(model, pair, experiments.pair_runs(model, pair))
        return [f"patch {p}: not torch.equal" for p, ok in zip(r.patches, r.equal) if not ok]

    return {
        "patching.full-patch-identity": identity,
        "patching.hook-reference": reference,
        "patching.whole-stream-fires-once": lambda: failures(fire_once.whole_stream_fires(model, pair)),
        "patching.position-sweep-fires-once": lambda: failures(
            fire_once.position_sweep_fires(model, pair, batched=False)),
        "patching.position-sweep-fires-once (fast mode)": lambda: failures(
            fire_once.position_sweep_fires(model, pair, batched=True)),
        "patching.layer-flip-fires-once": lambda: failures(
            fire_once.layer_flip_fires(model, pair, sizes.patch_layer)),
        "patching.clean-preferred": preferred,
        "patching.sweep-coverage": coverage(False),
        "patching.sweep-coverage (fast mode)": coverage(True),
        "patching.sweep-rows": rows(False),
        "patching.sweep-rows (fast mode)": rows(True),
        "patching.behaviour-reference": behaviours,
        "patching.layer-flip-reference": flips,
        "patching.sweep-reference": study_sweeps(False),
        "patching.sweep-reference (fast mode)": study_sweeps(True),
    }
