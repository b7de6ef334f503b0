"""Seed 001 §2: D's final residual transplanted into R before every block, and the block rule."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.patches import residual_patch
from harness.sources.heads.observations import RESIDUAL_SEED, HeadsLab, Observation


@dataclass
class ResidualSweep:
    """§2: mean p(U), p(L), p(D) after transplanting D's final residual into R at each block.

    The notebook's residual-identity check is the heads.residual-identity anchor (every block)."""

    stats: dict[int, dict[str, BootstrapMean]]
    retrieval_block: int | None
    donor_residuals: dict[str, dict[int, torch.Tensor]]


def select_block(stats: dict[int, dict[str, BootstrapMean]]) -> int | None:
    """§2's rule: the latest block with mean p(L) ≥ .25 and p(L) − p(D) ≥ .10."""
    eligible = [b for b, s in stats.items()
                if s["L"].mean >= 0.25 and s["L"].mean - s["D"].mean >= 0.10]
    return max(eligible) if eligible else None


@dataclass(frozen=True)
class Site:
    """The block later studies inspect, and whether §2's rule chose it."""

    block: int
    chosen_by: str   # "rule" or "smoke-test block"

    @property
    def blocks(self) -> tuple[int, int]:
        """§3: the blocks every main-study run captures: this one and the next."""
        return self.block, self.block + 1


def site_for(sweep: ResidualSweep, n_blocks: int, smoke_block: int | None) -> Site | None:
    """§2: the rule's block when it leaves a next block to screen; otherwise the smoke-test
    block (the notebook's RUN_ALL_FAMILIES=False path), if the profile declares one."""
    block = sweep.retrieval_block
    if block is not None and block + 1 < n_blocks:
        return Site(block, "rule")
    return Site(smoke_block, "smoke-test block") if smoke_block is not None else None


def residual_sweep(lab: HeadsLab) -> ResidualSweep:
    """§2: native R and D (all blocks captured), then D's residual into R before every block the
    lab sweeps (every one, unless a profile's sizes name fewer)."""
    blocks, swept = list(range(lab.geometry.n_blocks)), lab.swept_blocks
    rows: dict[int, list[Observation]] = {b: [] for b in swept}
    donors = {}
    for family in lab.opening:
        assert len(lab.prompt(family, "R").input_ids) == len(lab.prompt(family, "D").input_ids)
        recipient, _ = lab.run_case(family, "R", "native.R", study="opening", capture_blocks=blocks)
        donor, _ = lab.run_case(family, "D", "native.D", study="opening", capture_blocks=blocks)
        donors[family.family_id] = {b: c.residual_before[:, -1].clone()
                                    for b, c in donor.activations.items()}
        for b in swept:
            hybrid, obs = lab.run_case(family, "R", f"residual.layer{b:02d}",
                                       [residual_patch(b, donors[family.family_id][b])],
                                       study="opening", capture_blocks=(b,), layer=b)
            lab.check_previous_token(f"opening:{family.family_id}:residual.layer{b:02d}",
                                     hybrid, recipient)
            rows[b].append(obs)
    stats = {b: {role: bootstrap_mean([o.probability(role) for o in rows[b]], RESIDUAL_SEED)
                 for role in ("U", "L", "D")} for b in swept}
    return ResidualSweep(stats, select_block(stats), donors)
