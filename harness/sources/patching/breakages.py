"""Seed 004's breakage catalogue (harness.catalogue): edits of the patches that its anchors
must catch, and the anchor checks run after each."""
from __future__ import annotations

from harness.catalogue import Breakage, Checks
from harness.fire_once import failures
from harness.models.loaded import Loaded

E = "harness.sources.patching.experiments"
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
             "out[rows, rows, :] = source[0].to(out)", "out[rows.flip(0), rows, :] = source[0].to(out)"),
    Breakage("batched sweep writes one block late", "wrong layer", E,
             "block, lm_head = blocks(model)[layer], model.nn.lm_head",
             "block, lm_head = blocks(model)[min(layer + 1, n_layers(model) - 1)], model.nn.lm_head"),
    Breakage("sweep copies the clean value of the block before", "wrong layer", E,
             "raw = [[logit_diff(patched_logits(model, pair.corrupted, layer, [pos], runs.cache[layer]),",
             "raw = [[logit_diff(patched_logits(model, pair.corrupted, layer, [pos], runs.cache[max(layer - 1, 0)]),"),
)


def checks(model: Loaded, sizes) -> Checks:
    """The identity, hook-reference and fire-once anchors, on the module objects imported now."""
    from harness.sources.patching import experiments, fire_once
    from harness.sources.patching import task as ioi

    pair = experiments.pair_ids(model, *ioi.PAIRS["seed"])

    def identity() -> list[str]:
        r = experiments.full_patch_identity(model, pair, experiments.pair_runs(model, pair))
        return [f"layer {i}: not the clean logits" for i, ok in enumerate(r.equal_per_layer) if not ok]

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
    }
