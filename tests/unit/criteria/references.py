"""Independent implementations of the two exact intervals the criteria use, to test them against:
scipy's binomial test (root-finding on the binomial tail, not the beta quantile) and a Poisson
interval found by inverting the Poisson distribution function (not the chi-square quantile)."""
from __future__ import annotations

import math
from typing import Any

import pytest
from scipy.optimize import brentq
from scipy.stats import binomtest, poisson


def binomial_reference(k: int, n: int, confidence: float) -> tuple[float, float]:
    """Clopper-Pearson's interval for k of n, as scipy's exact binomial test states it."""
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def poisson_reference(total: int, confidence: float) -> tuple[float, float]:
    """Garwood's interval for an observed total: the means at which seeing at least `total`
    (lower end), or at most `total` (upper end), has probability (1 - confidence) / 2."""
    tail = (1.0 - confidence) / 2
    far = total + 20 * math.sqrt(total) + 20  # past the upper end up to 99.9999%
    lo = 0.0 if total == 0 else brentq(lambda mu: poisson.cdf(total - 1, mu) - (1 - tail),
                                       1e-300, total, xtol=1e-300, rtol=1e-14)
    hi = brentq(lambda mu: poisson.cdf(total, mu) - tail, max(total, 1e-300), far,
                xtol=1e-300, rtol=1e-14)
    return float(lo), float(hi)


def agrees(want: tuple[float, float]) -> Any:
    """Both ends to a part in 10^7, or within 1e-10 (scipy's solver stops within 2e-12)."""
    return pytest.approx(want, rel=1e-7, abs=1e-10)
