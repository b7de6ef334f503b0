"""Criteria from the published uncertainty: binomial and Poisson intervals, curves, peaks."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from harness.criteria.base import Check, Values


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact two-sided binomial interval for k successes in n trials."""
    from scipy.stats import beta  # imported when judged: every pytest process loads this module

    if not 0 <= k <= n or n <= 0:
        raise ValueError(f"need 0 <= k <= n and n > 0, got k={k}, n={n}")
    alpha = 1.0 - confidence
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def published_interval(published: Mapping[str, Any], key: str, n_key: str,
                       confidence: float) -> tuple[int, int, float, float]:
    """(k, n, lo, hi): a published rate as a count at its n, and that count's binomial interval."""
    n = published[n_key]
    k = round(published[key] * n)
    return (k, n, *clopper_pearson(k, n, confidence))


def _rate(measured: Mapping[str, Any], key: str, n_key: str) -> tuple[float, str]:
    k, n = measured[key], measured[n_key]
    if n == 0:
        raise ValueError(f"no samples: measured {n_key} = 0")
    return k / n, f"{k}/{n}"


@dataclass(frozen=True)
class Binomial:
    """The measured rate lies in the 95% Clopper-Pearson interval of the published k/n."""

    key: str
    n_key: str = "n"
    confidence: float = 0.95

    def describe(self) -> str:
        return (f"{self.key}/{self.n_key} inside the {self.confidence:.0%} binomial interval "
                f"of the published count")

    def judge(self, measured: Values, published: Values) -> Check:
        lo, hi = clopper_pearson(published[self.key], published[self.n_key], self.confidence)
        rate, text = _rate(measured, self.key, self.n_key)
        ok = lo <= rate <= hi
        return Check(ok, f"{self.key}: measured {text} = {rate:.3f}, published "
                         f"{published[self.key]}/{published[self.n_key]} -> [{lo:.3f}, {hi:.3f}]")


@dataclass(frozen=True)
class BinomialRate:
    """A measured rate lies in the binomial interval of a published rate at the published n."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("n_key",)  # read from the published values
    key: str
    n_key: str = "n"
    confidence: float = 0.95

    def describe(self) -> str:
        return f"{self.key} inside the {self.confidence:.0%} binomial interval of the published rate"

    def judge(self, measured: Values, published: Values) -> Check:
        k, n, lo, hi = published_interval(published, self.key, self.n_key, self.confidence)
        m = measured[self.key]
        return Check(lo <= m <= hi, f"{self.key}: measured {m:.4f}, published "
                                    f"{published[self.key]} (~{k}/{n}) -> [{lo:.3f}, {hi:.3f}]")


@dataclass(frozen=True)
class CurveBinomial:
    """Every point of a measured curve lies in the binomial interval of its published k/n."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("n_key",)  # read from the published values
    key: str
    n_key: str = "n"
    confidence: float = 0.95

    def describe(self) -> str:
        return f"every point of {self.key} inside the {self.confidence:.0%} binomial interval"

    def judge(self, measured: Values, published: Values) -> Check:
        n = published[self.n_key]
        pub: Sequence[float] = published[self.key]
        got: Sequence[float] = measured[self.key]
        if len(got) != len(pub):
            return Check(False, f"{self.key}: {len(got)} points measured, {len(pub)} published")
        misses = []
        for i, (p, m) in enumerate(zip(pub, got)):
            lo, hi = clopper_pearson(round(p * n), n, self.confidence)
            if not lo <= m <= hi:
                misses.append(f"[{i}] {m:.3f} not in [{lo:.3f}, {hi:.3f}]")
        return Check(not misses, f"{self.key}: " + ("; ".join(misses) if misses else
                                                   f"all {len(pub)} points inside"))


@dataclass(frozen=True)
class InInterval:
    """The measured value lies in the published (bootstrap) interval."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("interval_key",)  # read from the published values
    key: str
    interval_key: str
    # Whether the interval is a printed value's rounding rather than a bootstrap's sampling
    # spread: read by its sensitivity (harness.criteria.sensitivity), never by the judging.
    rounding: bool = False

    def describe(self) -> str:
        return f"{self.key} inside the published interval {self.interval_key}"

    def judge(self, measured: Values, published: Values) -> Check:
        lo, hi = published[self.interval_key]
        m = measured[self.key]
        return Check(lo <= m <= hi, f"{self.key}: measured {m}, published interval [{lo}, {hi}]")


@dataclass(frozen=True)
class CoversPublished:
    """The measured (bootstrap) interval contains the published mean, printed without one."""

    key: str
    interval_key: str

    def describe(self) -> str:
        return f"the measured interval {self.interval_key} contains the published {self.key}"

    def judge(self, measured: Values, published: Values) -> Check:
        lo, hi = measured[self.interval_key]
        p = published[self.key]
        return Check(lo <= p <= hi, f"{self.key}: published {p}, measured {measured[self.key]} "
                                    f"with interval [{lo}, {hi}]")


@dataclass(frozen=True)
class PeakLayer:
    """The measured curve peaks within `tolerance` layers of the published peak."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("layer_key",)  # read from the published values
    key: str
    layer_key: str = "peak_layer"
    tolerance: int = 1

    def describe(self) -> str:
        return f"peak of {self.key} within ±{self.tolerance} layer of the published peak"

    def judge(self, measured: Values, published: Values) -> Check:
        curve = measured[self.key]
        peak = max(range(len(curve)), key=lambda i: curve[i])
        target = published[self.layer_key]
        return Check(abs(peak - target) <= self.tolerance,
                     f"{self.key}: measured peak at {peak}, published {target}")


def garwood(total: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact two-sided Poisson interval for an observed total count."""
    from scipy.stats import chi2

    alpha = 1.0 - confidence
    lo = 0.0 if total == 0 else float(chi2.ppf(alpha / 2, 2 * total) / 2)
    hi = float(chi2.ppf(1 - alpha / 2, 2 * total + 2) / 2)
    return lo, hi


@dataclass(frozen=True)
class PoissonMean:
    """A measured mean count lies in the Poisson interval of the published mean × n, over n."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("n_key",)  # read from the published values
    key: str
    n_key: str = "n"
    confidence: float = 0.95

    def describe(self) -> str:
        return f"{self.key} inside the {self.confidence:.0%} Poisson interval of the published total"

    def judge(self, measured: Values, published: Values) -> Check:
        n = published[self.n_key]
        total = round(published[self.key] * n)
        lo, hi = (x / n for x in garwood(total, self.confidence))
        m = measured[self.key]
        return Check(lo <= m <= hi, f"{self.key}: measured {m}, published {published[self.key]} "
                                    f"(total {total} over {n}) -> [{lo:.2f}, {hi:.2f}]")


@dataclass(frozen=True)
class NeighbourOf:
    """The measured choice is the published one or its neighbour on the published grid."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("grid_key",)  # read from the published values
    key: str
    grid_key: str
    tolerance: int = 1

    def describe(self) -> str:
        return f"{self.key} within ±{self.tolerance} grid step of the published choice"

    def judge(self, measured: Values, published: Values) -> Check:
        grid = list(published[self.grid_key])
        m, p = measured[self.key], published[self.key]
        ok = m in grid and abs(grid.index(m) - grid.index(p)) <= self.tolerance
        return Check(ok, f"{self.key}: measured {m}, published {p} on grid {grid}")


@dataclass(frozen=True)
class BinomialAtMost:
    """A measured rate does not exceed the upper binomial bound of a published maximum at n."""

    PUBLISHED_KEYS: ClassVar[tuple[str, ...]] = ("n_key",)  # read from the published values
    key: str
    n_key: str = "n"
    confidence: float = 0.95

    def describe(self) -> str:
        return f"{self.key} at most the {self.confidence:.0%} upper binomial bound of the published maximum"

    def judge(self, measured: Values, published: Values) -> Check:
        k, n, _, hi = published_interval(published, self.key, self.n_key, self.confidence)
        m = measured[self.key]
        return Check(m <= hi, f"{self.key}: measured {m:.4f}, published ≤ {published[self.key]} "
                              f"(~{k}/{n}) -> bound {hi:.3f}")
