"""Seed 004's breakage catalogue (harness.catalogue): edits of the patches that its anchors
must catch, and the anchors run after each."""
from __future__ import annotations

from harness.anchor_checks import Checked
from harness.breakage_edit import Breakage, Part

E = "harness.sources.patching.experiments"
NORMALISED = "norm = [[round((r - ld_corrupt) / span, 4) if span else None for r in row] for row in raw]"
POSITION_WRITE = "out[:, positions, :] = source[:, positions, :].to(out.device)"
BATCH_TRACE = "with torch.no_grad(), model.nn.trace(torch.tensor([list(ids)] * n, device=model.device)):"

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
    # Issue 46: the batch itself moves its rows, which the fire-once replay of the same batch
    # repeats; the derived rows-alone anchor sees it.
    Breakage("batched sweep counts positions from one", "wrong position", E, BATCH_TRACE,
             BATCH_TRACE.replace("device=model.device)):", "device=model.device), position_ids="
                                 "torch.arange(1, n + 1, device=model.device)[None].expand(n, -1)):"),
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


# The anchors whose checks run after each breakage (harness.anchor_checks), in the order tried:
# each judged by its own holds on the declared steps, and again in fast mode where it reads a
# batched step.
ANCHORS = (Checked((
    "patching.full-patch-identity", "patching.hook-reference", "patching.whole-stream-fires-once",
    "patching.position-sweep-fires-once", "patching.whole-stream-identity",
    "patching.position-sweep-rows-alone", "patching.layer-flip-fires-once",
    "patching.clean-preferred", "patching.sweep-coverage", "patching.sweep-rows",
    "patching.behaviour-reference", "patching.layer-flip-reference", "patching.sweep-reference")),)
