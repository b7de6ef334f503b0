"""Seed 003 §7: the reversed swap restricted to fitted and random low-rank subspaces."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.sources.lookback.interchange import interchange, written_alone
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.runner import LAST_LOGITS, LookbackRunner, read_layers, score
from harness.sources.lookback.task import Counterfactual

RANDOM_BASIS_SEEDS = (0, 1, 2)  # §7: each random rank-k subspace's score averages these draws


@dataclass
class LowRank:
    """§7: the reversed swap restricted to fitted or random rank-k subspaces, on held-out samples,
    with each write's recorded answers (by `label`) and the fitted basis, for the readback."""

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
    answers: dict[str, list[str]]  # each write's answer per held-out row, by `label`
    fitted_basis: torch.Tensor     # the fitted basis's first max(ranks) rows (float32, CPU)


def label(k: int | None = None, seed: int | None = None) -> str:
    """The name a §7 write's answers are recorded under: unrestricted, fitted at rank k, or the
    random control at rank k from `seed`."""
    if k is None:
        return "unrestricted"
    return f"fitted {k}" if seed is None else f"random {k} seed {seed}"


def random_basis(d: int, k: int, seed: int, like: torch.Tensor) -> torch.Tensor:
    """§7's random control: an orthonormal rank-k basis (rows) of a d-wide space, drawn on the
    CPU from `seed` (the same draw on any device), on `like`'s device in the float32 the
    projection computes in."""
    draw = torch.randn(d, k, generator=torch.Generator(device="cpu").manual_seed(seed), device="cpu")
    return torch.linalg.qr(draw)[0].T.to(device=like.device, dtype=torch.float32)


def swap_pairs(runner: LookbackRunner, rows: list[Counterfactual], layer: int, state: list[int],
                state_rev: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """§7: the clean drink residuals h_dst and the counterfactual's reversed ones h_src, read in
    the batches the interchange runs (faithful mode: its counterfactual rows, then its clean
    rows; fast mode: each run's rows alone, through the interchange's own read), so that h_src
    is bit for bit what the interchange copies."""
    dst, src = [], []
    bs = runner.sizes.interchange_batch
    layer_mod = runner.layers[layer]
    for i in range(0, len(rows), bs):
        cf, clean = [r.cf for r in rows[i:i + bs]], [r.clean for r in rows[i:i + bs]]
        if runner.sizes.read_once:
            src.append(read_layers(runner, cf, state_rev)[layer])
            dst.append(read_layers(runner, clean, state)[layer])
            continue
        with torch.no_grad(), runner.model.nn.trace(**LAST_LOGITS) as tracer:
            with tracer.invoke(cf):
                h_src = layer_mod.output[:, state_rev].clone().save()
            with tracer.invoke(clean):
                h_dst = layer_mod.output[:, state].clone().save()
        dst.append(h_dst)
        src.append(h_src)
    return torch.cat(dst), torch.cat(src)


def projected(h_dst: torch.Tensor, h_src: torch.Tensor, basis: torch.Tensor | None) -> torch.Tensor:
    """§7's write: h_dst + (h_src − h_dst) projected on `basis` (rows); with no basis, h_src
    itself (in bf16, h_dst + (h_src − h_dst) need not be h_src)."""
    if basis is None:
        return h_src
    delta = (h_src - h_dst).float()
    basis = basis.to(device=delta.device, dtype=delta.dtype)
    return h_dst + (delta @ basis.T @ basis).to(h_dst.dtype)


def projected_answers(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                      state: list[int], h_dst: torch.Tensor, h_src: torch.Tensor,
                      basis: torch.Tensor | None) -> list[str]:
    """Each row's answer with the projected value written; each batch runs as the interchange's
    does (written_logits), so the unrestricted swap is the interchange exactly."""
    new = projected(h_dst, h_src, basis)
    return runner.decode(written_logits(runner, rows, layer, state, new).argmax(-1))


def projected_iia(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                  state: list[int], h_dst: torch.Tensor, h_src: torch.Tensor,
                  basis: torch.Tensor | None) -> float:
    """The fraction of rows the projected write moves to the target (projected_answers)."""
    return score(projected_answers(runner, rows, layer, state, h_dst, h_src, basis), rows,
                 "target")


def written_logits(runner: LookbackRunner, rows: list[Counterfactual], layer: int,
                   state: list[int], new: torch.Tensor) -> torch.Tensor:
    """The clean runs' final logits with `new` written at `state` after `layer`, batched as the
    interchange batches: each chunk's counterfactual rows unedited, then its clean rows (faithful
    mode), or its clean rows alone through the interchange's own write (fast mode)."""
    bs, layer_mod, lm_head = runner.sizes.interchange_batch, runner.layers[layer], runner.lm_head
    logits = []
    for i in range(0, len(rows), bs):
        cf, clean = [r.cf for r in rows[i:i + bs]], [r.clean for r in rows[i:i + bs]]
        if runner.sizes.read_once:
            logits.append(written_alone(runner, clean, layer, state, new[i:i + bs]))
            continue
        with torch.no_grad(), runner.model.nn.trace(**LAST_LOGITS) as tracer:
            with tracer.invoke(cf):
                pass
            with tracer.invoke(clean):
                layer_mod.output[:, state] = new[i:i + bs].to(layer_mod.output.device)
                final = lm_head.output[:, -1].save()
        logits.append(final.float().cpu())
    return torch.cat(logits)


def low_rank(runner: LookbackRunner, rows: list[Counterfactual], layer: int) -> LowRank:
    """§7: SVD basis of the mean-centred swap deltas of the first half; scored on the second."""
    state, state_rev = state_positions(row_layout(runner, rows[0]))
    half = len(rows) // 2
    held = rows[half:]
    # Each half is read in its own batches, so the held-out half's align with the interchange's.
    h_dst, h_src = swap_pairs(runner, rows[:half], layer, state, state_rev)
    d_dst, d_src = swap_pairs(runner, held, layer, state, state_rev)
    deltas = (h_src - h_dst).float().reshape(-1, h_dst.shape[-1])
    _, _, vt = torch.linalg.svd(deltas - deltas.mean(0), full_matrices=False)
    ranks = [k for k in runner.sizes.low_rank_ranks if k <= vt.shape[0]]
    d = h_dst.shape[-1]
    answers = {label(): projected_answers(runner, held, layer, state, d_dst, d_src, None)}
    for k in ranks:
        answers[label(k)] = projected_answers(runner, held, layer, state, d_dst, d_src, vt[:k])
    for k in ranks:
        for seed in RANDOM_BASIS_SEEDS:
            q = random_basis(d, k, seed, like=d_src)
            answers[label(k, seed)] = projected_answers(runner, held, layer, state, d_dst, d_src,
                                                        q)
    scored = {name: score(got, held, "target") for name, got in answers.items()}
    return LowRank(
        layer=layer, fitted_on=half, held_out=len(held), directions=vt.shape[0],
        difference_vectors=deltas.shape[0], unrestricted=scored[label()],
        interchange=score(next(interchange(runner, held, [layer], state, state_rev)), held,
                          "target"),
        ranks=ranks, fitted=[scored[label(k)] for k in ranks],
        random=[round(sum(scored[label(k, s)] for s in RANDOM_BASIS_SEEDS)
                      / len(RANDOM_BASIS_SEEDS), 4) for k in ranks],
        answers=answers, fitted_basis=vt[:max(ranks, default=0)].float().cpu(),
    )
