"""Seed 003's breakage catalogue (harness.catalogue): edits of §4–§7's intervention code that
its anchors must catch, and the anchor checks run after each."""
from __future__ import annotations

from harness.catalogue import Breakage, Checks
from harness.fire_once import failures
from harness.models.loaded import Loaded

INTERCHANGE, ANSWERS, LOW_RANK = ("harness.sources.lookback.interchange",
                                  "harness.sources.lookback.answers",
                                  "harness.sources.lookback.low_rank")
POSITIONS = "harness.sources.lookback.positions"
BARRIER_WRITE = 'layer_mod.output[:, dst_pos] = box["acts"]'
SOURCE_WRITE = "layer.output[:, dst] = cf_vals[index].to(layer.output.device)"
FREEZE_WRITE = "layer.output[:, drinks] = clean_vals[index].to(layer.output.device)"
LOW_RANK_WRITE = "layer_mod.output[:, state] = new[i:i + bs].to(layer_mod.output.device)"

BREAKAGES = (
    Breakage("§4 interchange writes nothing", "write nothing", INTERCHANGE, BARRIER_WRITE,
             '_ = box["acts"]'),
    Breakage("§4 sweep one layer early", "wrong layer", INTERCHANGE,
             "preds = interchange(runner, rows, layer, src, dst)",
             "preds = interchange(runner, rows, max(layer - 1, 0), src, dst)"),
    Breakage("§4 interchange one position early", "wrong position", INTERCHANGE, BARRIER_WRITE,
             'layer_mod.output[:, [p - 1 for p in dst_pos]] = box["acts"]'),
    Breakage("§4 interchange writes its own values", "write nothing", INTERCHANGE,
             'box["acts"] = layer_mod.output[:, src_pos]',
             'box["acts"] = layer_mod.output[:, dst_pos]'),
    Breakage("§4 drink positions one early", "wrong position", POSITIONS,
             "state = [lay.drinks[0], lay.after_drinks[0], lay.drinks[1], lay.after_drinks[1]]",
             "state = [lay.drinks[0] - 1, lay.after_drinks[0], lay.drinks[1] - 1, "
             "lay.after_drinks[1]]"),
    Breakage("§5 source swap writes nothing", "write nothing", INTERCHANGE, SOURCE_WRITE,
             "_ = cf_vals[index]"),
    Breakage("§5 source swap stops a layer short", "wrong layer", INTERCHANGE, "if index <= L:",
             "if index < L:"),
    Breakage("§5 source swap one position late", "wrong position", INTERCHANGE,
             "dst = lay.names + lay.objects", "dst = [p + 1 for p in lay.names + lay.objects]"),
    Breakage("§5 freeze writes nothing", "write nothing", INTERCHANGE, FREEZE_WRITE,
             "_ = clean_vals[index]"),
    Breakage("§6 answer patch at the previous position", "wrong position", ANSWERS,
             "[-1], [-1], bs=runner.sizes.answer_batch", "[-2], [-2], bs=runner.sizes.answer_batch"),
    Breakage("§6 answer sweep one layer late", "wrong layer", ANSWERS,
             "preds = interchange(runner, rows, layer,",
             "preds = interchange(runner, rows, min(layer + 1, runner.n_layers - 1),"),
    Breakage("§7 low-rank write of zero size", "zero size", LOW_RANK,
             "new = h_dst + (delta @ basis.T @ basis).to(h_dst.dtype)",
             "new = h_dst + (0 * delta @ basis.T @ basis).to(h_dst.dtype)"),
    Breakage("§7 low-rank writes nothing", "write nothing", LOW_RANK, LOW_RANK_WRITE,
             "_ = new[i:i + bs]"),
    # Choosing the subspace is a computation, not a write, so no fire-once anchor sees it; the
    # organism's planted ordering-ID direction does (lookback.low-rank's known answer).
    Breakage("§7 fitted basis takes the wrong singular vectors", "wrong row", LOW_RANK,
             "projected_iia(runner, held, layer, state, d_dst, d_src, vt[:k])",
             "projected_iia(runner, held, layer, state, d_dst, d_src, vt[1:k + 1])"),
    Breakage("§7 low-rank writes one layer early", "wrong layer", LOW_RANK,
             "bs, layer_mod, lm_head = runner.sizes.interchange_batch, runner.layers[layer], runner.lm_head",
             "bs, layer_mod, lm_head = runner.sizes.interchange_batch, runner.layers[max(layer - 1, 0)], runner.lm_head"),
)


def checks(model: Loaded, sizes) -> Checks:
    """The fire-once and identity anchors of §4–§7, then the organism's known answers, on the
    module objects imported now (the catalogue stops at the first that fails)."""
    from harness.organisms.common import read_manifest
    from harness.sources import source
    from harness.sources.lookback import fire_once as fire
    from harness.sources.lookback import identity, known_answers
    from harness.sources.lookback.runner import LookbackRunner
    from harness.sources.lookback.task import build_answer, build_binding, build_source

    runner = LookbackRunner(model, sizes)
    kw = {"instruction": runner.instruction}
    binding, sourced = build_binding(**kw), build_source(**kw)

    def identical(result) -> list[str]:
        return [f"layer {layer}: not bit-identical" for layer, ok in
                zip(result.layers, result.identical) if not ok]

    return {
        "lookback.interchange-fires-once": lambda: failures(fire.interchange_fires(runner, binding)),
        "lookback.source-swap-fires-once": lambda: failures(fire.source_fires(runner, sourced, False)),
        "lookback.freeze-fires-once": lambda: failures(fire.source_fires(runner, sourced, True)),
        "lookback.answer-fires-once": lambda: failures(fire.answer_fires(runner, build_answer(**kw))),
        "lookback.low-rank-fires-once": lambda: failures(fire.low_rank_fires(runner, binding)),
        "lookback.self-patch-identity": lambda: identical(identity.self_patch(runner, [], binding[:2])),
        **known_answers.checks(runner, read_manifest(model.spec.organism,
                                                     source("lookback").organisms_dir)["planted"]),
    }
