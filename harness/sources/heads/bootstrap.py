"""Resampling statistics the seeds report: seed 001's family bootstrap."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class BootstrapMean:
    """A mean with its 95% percentile bootstrap interval over independent families."""

    mean: float
    ci95: tuple[float, float]
    n_families: int

    def format(self) -> str:
        """The seed's `mean [lower, upper]` with five decimals."""
        return f"{self.mean:.5f} [{self.ci95[0]:.5f}, {self.ci95[1]:.5f}]"


def bootstrap_mean(values: Sequence[float], seed: int, resamples: int = 5000) -> BootstrapMean:
    """Seed 001 §1: resample families with numpy's default_rng(seed), one paired value each."""
    array = np.asarray(values, dtype=np.float64)
    assert array.ndim == 1 and len(array) and np.isfinite(array).all()
    indices = np.random.default_rng(seed).integers(len(array), size=(resamples, len(array)))
    lower, upper = np.quantile(array[indices].mean(axis=1), [0.025, 0.975]).tolist()
    return BootstrapMean(float(array.mean()), (lower, upper), len(array))
