"""How often a criterion rejects a true value moved away from the published one (issue 47): the
probability of each acceptance region under the binomial, the Poisson and a normal model, and the
smallest departure rejected with probability at least POWER."""
from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

POWER = 0.8  # the rejection probability a departure must reach to count as detected
GRID = 400  # departures tried before the crossing is refined by bisection
SIMULATED_DRAWS = 20_000  # draws of a seeded simulation (its standard error at 0.8: 0.003)
SEED = 0


def accepted_counts(n: int, lo: float, hi: float, scale: float | None = None) -> np.ndarray:
    """Which counts 0..n a criterion accepts, as a boolean mask: count/scale in [lo, hi] (scale
    n by default, the count's rate)."""
    counts = np.arange(n + 1)
    value = counts / (scale if scale is not None else n)
    return (value >= lo) & (value <= hi)


@functools.lru_cache(maxsize=256)
def _log_choose(n: int) -> np.ndarray:
    """log C(n, k) for k = 0..n."""
    from scipy.special import gammaln

    k = np.arange(n + 1)
    return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)


def binomial_acceptance(accepted: np.ndarray, n: int, p: float) -> float:
    """P(the criterion accepts) when the count is Binomial(n, p)."""
    p = min(max(p, 0.0), 1.0)
    if p in (0.0, 1.0):
        return float(accepted[0 if p == 0.0 else n])
    k = np.arange(n + 1)
    pmf = np.exp(_log_choose(n) + k * math.log(p) + (n - k) * math.log1p(-p))
    return float(pmf[accepted].sum())


def poisson_acceptance(n: int, lo: float, hi: float, mean: float) -> float:
    """P(lo <= T/n <= hi) when the total T is Poisson(n * mean)."""
    from scipy.stats import poisson

    mu = max(n * mean, 0.0)
    top = math.floor(hi * n + 1e-9)
    bottom = math.ceil(lo * n - 1e-9)
    if top < bottom:
        return 0.0
    below = poisson.cdf(bottom - 1, mu) if bottom > 0 else 0.0
    return float(poisson.cdf(top, mu) - below)


def normal_draws(seed: int = SEED, draws: int = SIMULATED_DRAWS) -> np.ndarray:
    """Seeded standard normal draws, shared by every departure tried (common random numbers, so
    the simulated rejection rate moves smoothly with the departure)."""
    return np.random.default_rng(seed).standard_normal(draws)


def smallest_departure(acceptance: Callable[[float], float], reach: float) -> float | None:
    """The smallest departure d in (0, reach] such that the criterion rejects (1 - acceptance(d))
    with probability at least POWER at d and at every larger departure up to `reach`; None where
    even `reach` is not rejected that often. A grid of GRID departures finds the last one that
    falls short, and bisection refines the crossing after it."""
    if reach <= 0:
        return None
    grid = [reach * (i + 1) / GRID for i in range(GRID)]
    power = [1.0 - acceptance(d) for d in grid]
    if power[-1] < POWER:
        return None
    short = [i for i, p in enumerate(power) if p < POWER]
    if not short:
        lo, hi = 0.0, grid[0]
    else:
        lo, hi = grid[short[-1]], grid[short[-1] + 1]
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if 1.0 - acceptance(mid) >= POWER else (mid, hi)
    return hi


def n_to_detect(detects: Callable[[int], float | None], effect: float,
                most: int = 1_000_000) -> int | None:
    """The least n at which the departure `detects(n)` reports is at most `effect`, found by
    doubling then bisection (the departure shrinks as n grows); None beyond `most`."""
    def enough(n: int) -> bool:
        d = detects(n)
        return d is not None and d <= effect

    if effect <= 0:
        return None
    if enough(1):
        return 1
    n = 2
    while not enough(n):
        n *= 2
        if n > most:
            return None
    lo, hi = n // 2, n  # lo falls short, hi is enough
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi
