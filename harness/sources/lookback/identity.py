"""Seed 003 §4's machinery anchor: the self-patch must leave the logits bit-identical."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.sources.lookback.fire_once import own_rows
from harness.sources.lookback.interchange import barrier_logits, interchange_logits
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LookbackRunner, final_logits
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
    """§4: patch-onto-itself at the drink positions (each row's clean prompt as its own
    counterfactual) must leave the logits bit-identical: through the interchange's barrier,
    against the unpatched invoke of the same traces (faithful mode), or through its read-once
    path against the clean rows' unpatched forwards (fast mode). Runs on the first kept samples,
    as the notebook does, or on the first rows when fewer are kept."""
    rows = own_rows((kept if len(kept) >= SELF_PATCH_ROWS else rows)[:SELF_PATCH_ROWS])
    positions, _ = state_positions(row_layout(runner, rows[0]))
    layers, bs = list(runner.sizes.self_patch_layers), runner.sizes.interchange_batch
    if not runner.sizes.read_once:
        pairs = []
        for layer in layers:
            read: list[torch.Tensor] = []
            patched = barrier_logits(runner, rows, layer, positions, positions, bs, read)
            pairs.append((patched, torch.cat(read)))
        return _identity(layers, pairs)
    base = torch.cat([final_logits(runner, [r.clean for r in rows[i:i + bs]])
                      for i in range(0, len(rows), bs)])
    return _identity(layers, [(p, base) for p in interchange_logits(runner, rows, layers,
                                                                     positions, positions)])
