"""Seed 003 §7 written again as plain code from the register (issue 49): at one block, the clean
run's drink residuals h_dst and the counterfactual's reversed ones h_src, read one row at a time
by plain forward hooks; an SVD basis of the mean-centred differences of the first half of the
rows; and on a held-out row, h_dst + U_k U_kᵀ (h_src − h_dst) written at the drinks for the
fitted basis and for random orthonormal ones drawn from each seed."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from harness.sources.lookback.reference import Answer, Plain, Swap, places
from harness.sources.lookback.reference_sweeps import binding_positions

SEEDS = (0, 1, 2)  # the register: the random control's seeds, averaged


def pair(plain: Plain, swap: Swap, layer: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The clean run's residuals at the drinks (h_dst) and the counterfactual's at the reversed
    positions (h_src), from block `layer`: [4, d] each."""
    state, reversed_ = binding_positions(places(plain.tok, swap), "reversed")
    h_dst = plain.read(swap.clean, state)[layer]
    h_src = plain.read(swap.cf, reversed_)[layer]
    return h_dst, h_src


@dataclass(frozen=True)
class Fit:
    """§7's fitted basis: its rows (the SVD's right singular vectors, float32) and how many
    difference vectors it was fitted on."""

    basis: torch.Tensor
    vectors: int


def fit(plain: Plain, held_in: Sequence[Swap], layer: int) -> Fit:
    """§7: the SVD of the held-in rows' differences h_src − h_dst, mean-centred."""
    deltas = []
    for swap in held_in:
        h_dst, h_src = pair(plain, swap, layer)
        deltas.append((h_src - h_dst).float())
    stacked = torch.cat(deltas)
    _, _, vt = torch.linalg.svd(stacked - stacked.mean(0), full_matrices=False)
    return Fit(vt, stacked.shape[0])


def random_basis(d: int, k: int, seed: int) -> torch.Tensor:
    """§7's control: torch.linalg.qr(torch.randn(d, k, generator=manual_seed(seed)))[0].T, the
    normal draw made on the CPU."""
    draw = torch.randn(d, k, generator=torch.Generator(device="cpu").manual_seed(seed), device="cpu")
    return torch.linalg.qr(draw)[0].T


def written(h_dst: torch.Tensor, h_src: torch.Tensor, basis: torch.Tensor | None) -> torch.Tensor:
    """§7's write: h_dst + (h_src − h_dst) projected on the basis's rows, in float32 (h_src itself
    unrestricted)."""
    if basis is None:
        return h_src
    delta = (h_src - h_dst).float()
    basis = basis.to(delta.device)
    return h_dst + (delta @ basis.T @ basis).to(h_dst.dtype)


Write = tuple[int | None, int | None]  # (rank, seed): (None, None) unrestricted, (k, None) fitted


def held_out(plain: Plain, swap: Swap, layer: int, fitted: Fit,
             ranks: Sequence[int], seeds: Sequence[int] = SEEDS) -> dict[Write, Answer]:
    """§7: one held-out row's answer under every write: unrestricted, the fitted basis's first k
    rows at each rank, and each seed's random rank-k basis."""
    h_dst, h_src = pair(plain, swap, layer)
    state = binding_positions(places(plain.tok, swap), "reversed")[0]
    bases: dict[Write, torch.Tensor | None] = {(None, None): None}
    bases.update({(k, None): fitted.basis[:k] for k in ranks})
    bases.update({(k, s): random_basis(h_dst.shape[-1], k, s) for k in ranks for s in seeds})
    return {w: plain.answer(swap.clean, {layer: [(state, written(h_dst, h_src, b))]})
            for w, b in bases.items()}
