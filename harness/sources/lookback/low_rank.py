"""Seed 003 §7: the reversed swap restricted to fitted and random low-rank subspaces."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.sources.lookback.interchange import interchange
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LookbackRunner, read_layers, score
from harness.sources.lookback.task import Counterfactual

RANDOM_BASIS_SEEDS = (0, 1, 2)  # §7: each random rank-k subspace's score averages these draws


@dataclass
class LowRank:
    """§7: the reversed swap restricted to fitted or random rank-k subspaces, on held-out samples."""

    layer: int
    fitted_on: int
    held_out: int
    directions: int          # the notebook's U_full.shape[0]: rows of the fitted SVD basis
    difference_vectors: int  # the notebook's D.shape[0]: held-in samples × swapped positions
    unrestricted: float
    interchange: float  # the same swap through the barrier machinery, for the anchor
    ranks: list[int]
    fitted: list[float]
    random: list[float]


def _swap_pairs(runner: LookbackRunner, rows: list[Counterfactual], layer: int, state: list[int],
                state_rev: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """§7: the clean drink residuals h_dst and the counterfactual's reversed ones h_src."""
    dst, src = [], []
    bs = runner.sizes.interchange_batch
    for i in range(0, len(rows), bs):
        chunk = rows[i:i + bs]
        dst.append(read_layers(runner, [r.clean for r in chunk], state)[layer])
        src.append(read_layers(runner, [r.cf for r in chunk], state_rev)[layer])
    return torch.cat(dst), torch.cat(src)


def _projected_iia(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                   state: list[int], h_dst: torch.Tensor, h_src: torch.Tensor,
                   basis: torch.Tensor | None) -> float:
    """Write h_dst + (h_src − h_dst) projected on `basis` (rows; None = unrestricted)."""
    delta = h_src - h_dst
    new = h_dst + (delta if basis is None else (delta.float() @ basis.T @ basis).to(delta.dtype))
    bs = runner.sizes.interchange_batch
    preds: list[str] = []
    for i in range(0, len(rows), bs):
        with torch.no_grad(), runner.model.nn.trace([r.clean for r in rows[i:i + bs]]):
            runner.layers[layer].output[:, state] = new[i:i + bs]
            top = runner.model.nn.lm_head.output[:, -1].argmax(-1).save()
        preds += runner.decode(top)
    return score(preds, rows, "target")


def low_rank(runner: LookbackRunner, rows: list[Counterfactual], layer: int) -> LowRank:
    """§7: SVD basis of the mean-centred swap deltas of the first half; scored on the second."""
    state, state_rev = state_positions(row_layout(runner, rows[0]))
    h_dst, h_src = _swap_pairs(runner, rows, layer, state, state_rev)
    half = len(rows) // 2
    deltas = (h_src[:half] - h_dst[:half]).float().reshape(-1, h_dst.shape[-1])
    _, _, vt = torch.linalg.svd(deltas - deltas.mean(0), full_matrices=False)
    held = rows[half:]
    d_src, d_dst = h_src[half:], h_dst[half:]
    ranks = [k for k in runner.sizes.low_rank_ranks if k <= vt.shape[0]]
    d = h_dst.shape[-1]
    random = []
    for k in ranks:
        scores = []
        for seed in RANDOM_BASIS_SEEDS:
            q = torch.linalg.qr(torch.randn(d, k, generator=torch.Generator().manual_seed(seed)))[0].T
            scores.append(_projected_iia(runner, held, layer, state, d_dst, d_src, q))
        random.append(round(sum(scores) / len(scores), 4))
    return LowRank(
        layer=layer, fitted_on=half, held_out=len(held), directions=vt.shape[0],
        difference_vectors=deltas.shape[0],
        unrestricted=_projected_iia(runner, held, layer, state, d_dst, d_src, None),
        interchange=score(interchange(runner, held, layer, state, state_rev), held, "target"),
        ranks=ranks,
        fitted=[_projected_iia(runner, held, layer, state, d_dst, d_src, vt[:k]) for k in ranks],
        random=random,
    )
