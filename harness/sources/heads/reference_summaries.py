"""Seed 001's summaries written again (issue 49): its family bootstrap with each study's seed,
§2's block rule and the screens' ranking, over per-family numbers the reference (reference.py)
measured; nothing of the studies is read."""
from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

# §1's bootstrap seeds (the seed's RESIDUAL_SEED, SCREEN_SEED and CONTENT_SEED): the screens
# draw 10000 resamples, the others the default 5000.
SWEEP_SEED, SCREEN_SEED, PAIRED_SEED = 31001, 300011, 27001
SCREEN_DRAWS, DRAWS = 10000, 5000
Summary = list[float]  # [mean, 2.5% quantile, 97.5% quantile, families]


def bootstrap(values: Sequence[float], seed: int, draws: int = DRAWS) -> Summary:
    """§1: the mean over families and the 2.5% and 97.5% quantiles of the means of `draws`
    resamples of the families, drawn with replacement by numpy's default_rng(seed); NaN where a
    family has no finite value."""
    x = np.asarray(values, dtype=np.float64)
    if not len(x) or not np.isfinite(x).all():
        return [math.nan, math.nan, math.nan, len(x)]
    picks = np.random.default_rng(seed).integers(len(x), size=(draws, len(x)))
    low, high = np.quantile(x[picks].mean(axis=1), [0.025, 0.975]).tolist()
    return [float(x.mean()), low, high, len(x)]


def block_rule(means: Mapping[int, Mapping[str, float]]) -> int | None:
    """§2: the latest block whose mean p(L) is at least .25 and at least .10 above mean p(D)."""
    chosen = [b for b, m in means.items() if m["L"] >= 0.25 and m["L"] - m["D"] >= 0.10]
    return max(chosen) if chosen else None


def ranked(losses: Mapping[int, float]) -> tuple[list[int], int | None]:
    """§2: heads by mean p(L) loss, largest first and ties by index; and the first, unless the
    second has the same mean (a tie picks no head)."""
    order = sorted(losses, key=lambda h: (-losses[h], h))
    tied = len(order) > 1 and losses[order[1]] == losses[order[0]]
    return order, None if tied else order[0]


def lone_wins(per_family: Sequence[Mapping[int, float]], head: int) -> int:
    """§5: the families in which `head` alone has the largest loss."""
    return sum([h for h, v in row.items() if v == max(row.values())] == [head]
               for row in per_family)
