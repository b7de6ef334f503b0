"""Seed 003 §4–§5's machinery anchors: patches that must leave the logits bit-identical."""
from __future__ import annotations

from dataclasses import dataclass, replace

import nnsight
import torch

from harness.sources.lookback.interchange import interchange_logits
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LAST_LOGITS, LookbackRunner, final_logits, read_layers
from harness.sources.lookback.task import SELF_PATCH_ROWS, Counterfactual


@dataclass
class Identity:
    """An identity anchor: per layer, whether the edited run's final logits equal the target's,
    and by how much they differ."""

    layers: list[int]
    identical: list[bool]
    max_abs_diff: list[float]


def _identity(layers: list[int], pairs: list[tuple[torch.Tensor, torch.Tensor]]) -> Identity:
    return Identity(layers, [torch.equal(a, b) for a, b in pairs],
                    [float((a - b).abs().max()) for a, b in pairs])


def self_patch(runner: LookbackRunner, kept: list[Counterfactual],
               rows: list[Counterfactual]) -> Identity:
    """§4: patch-onto-itself at the drink positions must leave the logits bit-identical.

    Runs on the first kept samples, as the notebook does, or on the first rows when fewer are kept;
    through the barrier (faithful mode) or the interchange's read-once path (fast mode).
    """
    rows = (kept if len(kept) >= SELF_PATCH_ROWS else rows)[:SELF_PATCH_ROWS]
    positions, _ = state_positions(row_layout(runner, rows[0]))
    layers = list(runner.sizes.self_patch_layers)
    if runner.sizes.read_once:
        return read_once_self_patch(runner, rows, layers, positions)
    pairs = []
    bs, lm_head = runner.sizes.interchange_batch, runner.lm_head  # bodies name envoys only
    for layer in layers:
        layer_mod = runner.layers[layer]
        got, ref = [], []
        for i in range(0, len(rows), bs):
            chunk = [r.clean for r in rows[i:i + bs]]
            box: dict[str, torch.Tensor] = {}
            with torch.no_grad(), runner.model.nn.trace(**LAST_LOGITS) as tracer:
                barrier = tracer.barrier(2)
                with tracer.invoke(chunk):
                    box["acts"] = layer_mod.output[:, positions]
                    barrier()
                    base = lm_head.output[:, -1].save()
                with tracer.invoke(chunk):
                    barrier()
                    layer_mod.output[:, positions] = box["acts"]
                    patched = lm_head.output[:, -1].save()
            got.append(patched.float().cpu())
            ref.append(base.float().cpu())
        pairs.append((torch.cat(got), torch.cat(ref)))
    return _identity(layers, pairs)


def read_once_self_patch(runner: LookbackRunner, rows: list[Counterfactual], layers: list[int],
                         positions: list[int]) -> Identity:
    """§4 in fast mode: each clean run's own drink-position values, read once per chunk, written
    back through the interchange's read-once path, against the clean runs' unedited logits."""
    bs = runner.sizes.interchange_batch
    own = [replace(r, cf=r.clean) for r in rows]  # the clean prompt as its own counterfactual
    base = torch.cat([final_logits(runner, [r.clean for r in rows[i:i + bs]])
                      for i in range(0, len(rows), bs)])
    return _identity(layers, [(p, base) for p in interchange_logits(runner, own, layers,
                                                                     positions, positions)])


def freeze_identity(runner: LookbackRunner, rows: list[Counterfactual]) -> Identity:
    """§5 anchor: the freeze alone (the clean run's own drink-position values written back at
    every layer) leaves the clean run's final logits bit-identical."""
    drinks, _ = state_positions(row_layout(runner, rows[0]))
    prompts = [r.clean for r in rows[:runner.sizes.interchange_batch]]
    own, layers = read_layers(runner, prompts, drinks), runner.layers

    def freeze() -> None:
        for index, layer in enumerate(layers):
            layer.output[:, drinks] = own[index].to(layer.output.device)

    return _identity([-1], [(final_logits(runner, prompts, freeze), final_logits(runner, prompts))])


def copy_all_identity(runner: LookbackRunner, rows: list[Counterfactual]) -> Identity:
    """§4 anchor: copying every position's residual from the counterfactual run at layer L into
    the clean run reproduces the counterfactual run's final logits exactly, at every layer."""
    chunk = rows[:runner.sizes.interchange_batch]
    clean, cf, layers = [r.clean for r in chunk], [r.cf for r in chunk], runner.layers
    with torch.no_grad(), runner.model.nn.trace(cf, **LAST_LOGITS):
        outputs = nnsight.save([])
        for layer in layers:
            outputs.append(layer.output.clone())
    target = final_logits(runner, cf)
    pairs = []
    for index in range(runner.n_layers):
        def copy(index: int = index) -> None:
            layers[index].output[:] = outputs[index]

        pairs.append((final_logits(runner, clean, copy), target))
    return _identity(list(range(runner.n_layers)), pairs)
