"""What each criterion could have detected (issue 47): per criterion kind, the smallest departure
from the published value it rejects with probability at least POWER at the measured n. Exact
where the distribution is known (binomial, Poisson), by seeded simulation of a normal model where
it is not (bootstrap intervals); a discrete or exact criterion says so instead. Sensitivity is a
fact about a criterion and n: it never changes what the criterion accepts."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping

from harness.criteria import intervals as iv
from harness.criteria.base import AllOf, Values
from harness.criteria.exact import AtMost, Recorded
from harness.criteria.power import (POWER, SIMULATED_DRAWS, accepted_counts, binomial_acceptance,
                                    normal_draws, poisson_acceptance, smallest_departure)

Z95 = 1.959963984540054  # a normal 95% interval's half-width in standard errors


@dataclass(frozen=True)
class Sensitivity:
    """The smallest fall (`lower`) and rise (`higher`) of `key` rejected with probability at
    least POWER at `n`: None where none can be (`room` says whether a move that way is possible
    at all); `statistical` False for a criterion with no sampling model (`how` says which)."""

    key: str
    how: str
    n: int | None = None
    lower: float | None = None
    higher: float | None = None
    room: tuple[bool, bool] = (True, True)
    statistical: bool = True
    accepts_published: float | None = None  # P(accept) for a replication at the published value

    def words(self) -> str:
        """"detects a fall of 0.26 or a rise of 0.1 or more in correct/n" (three significant
        figures), or what the criterion is where it is not statistical."""
        if not self.statistical:
            return f"{self.key}: {self.how}"
        parts = []
        for name, value, room in (("fall", self.lower, self.room[0]),
                                  ("rise", self.higher, self.room[1])):
            if room:
                parts.append(f"a {name} of {value:.3g}" if value is not None
                             else f"no {name} (none is rejected {POWER:.0%} of the time)")
        found = " or ".join(parts) if parts else "nothing (no room to move)"
        at = f" at n={self.n}" if self.n is not None else ""
        passes = self.accepts_published
        true = f"; a replication at the published value passes {passes:.0%} of the time" \
            if passes is not None and round(passes, 2) < 0.95 else ""
        return f"{self.key}: detects {found} or more{at} ({self.how}){true}"

    def as_record(self) -> dict[str, Any]:
        return {**asdict(self), "room": list(self.room), "words": self.words()}


def _n(measured: Values, published: Values, n_key: str) -> int:
    """The measured n where the measured values carry one, else the published n."""
    n = measured.get(n_key, published[n_key])
    return int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) and n > 0 else \
        int(published[n_key])


def _binomial(key: str, p0: float, n: int, lo: float, hi: float) -> Sensitivity:
    """A count at n accepted where its rate lies in [lo, hi], the true rate moved from p0."""
    accepted = accepted_counts(n, lo, hi)
    fall = smallest_departure(lambda d: binomial_acceptance(accepted, n, p0 - d), p0)
    rise = smallest_departure(lambda d: binomial_acceptance(accepted, n, p0 + d), 1.0 - p0)
    return Sensitivity(key, "exact binomial", n, fall, rise, (p0 > 0, p0 < 1),
                       accepts_published=binomial_acceptance(accepted, n, p0))


def binomial(c: iv.Binomial, published: Values, measured: Values) -> Sensitivity:
    """Binomial: the measured count over the measured n, against the published count's interval."""
    lo, hi = iv.clopper_pearson(published[c.key], published[c.n_key], c.confidence)
    p0 = published[c.key] / published[c.n_key]
    return _binomial(f"{c.key}/{c.n_key}", p0, _n(measured, published, c.n_key), lo, hi)


def binomial_rate(c: iv.BinomialRate, published: Values, measured: Values) -> Sensitivity:
    """BinomialRate: a measured rate at the measured n, against the published rate's interval."""
    _, _, lo, hi = iv.published_interval(published, c.key, c.n_key, c.confidence)
    return _binomial(c.key, float(published[c.key]), _n(measured, published, c.n_key), lo, hi)


def binomial_at_most(c: iv.BinomialAtMost, published: Values, measured: Values) -> Sensitivity:
    """BinomialAtMost: one-sided, so only a rise is judged."""
    _, _, _, hi = iv.published_interval(published, c.key, c.n_key, c.confidence)
    p0, n = float(published[c.key]), _n(measured, published, c.n_key)
    accepted = accepted_counts(n, 0.0, hi)
    rise = smallest_departure(lambda d: binomial_acceptance(accepted, n, p0 + d), 1.0 - p0)
    return Sensitivity(c.key, "exact binomial, one-sided: a fall is never rejected", n, None,
                       rise, (False, p0 < 1), accepts_published=binomial_acceptance(accepted, n, p0))


def curve_binomial(c: iv.CurveBinomial, published: Values, measured: Values) -> Sensitivity:
    """CurveBinomial: every point moved by the same departure (clipped to [0, 1]), each point an
    independent binomial count at n; the curve is rejected where any point leaves its interval."""
    points = [float(p) for p in published[c.key]]
    n = _n(measured, published, c.n_key)
    regions = [accepted_counts(n, *iv.clopper_pearson(round(p * n), n, c.confidence))
               for p in points]

    def acceptance(sign: int) -> Callable[[float], float]:
        return lambda d: math.prod(binomial_acceptance(a, n, p + sign * d)
                                   for a, p in zip(regions, points))

    fall = smallest_departure(acceptance(-1), max(points, default=0.0))
    rise = smallest_departure(acceptance(+1), 1.0 - min(points, default=1.0))
    return Sensitivity(f"{c.key} (every point)", "exact binomial per point, points independent",
                       n, fall, rise, (max(points, default=0) > 0, min(points, default=1) < 1),
                       accepts_published=acceptance(+1)(0.0))


def poisson_mean(c: iv.PoissonMean, published: Values, measured: Values) -> Sensitivity:
    """PoissonMean: the measured mean count over n, against the published total's interval."""
    pn = published[c.n_key]
    lo, hi = (x / pn for x in iv.garwood(round(published[c.key] * pn), c.confidence))
    m0, n = float(published[c.key]), _n(measured, published, c.n_key)
    fall = smallest_departure(lambda d: poisson_acceptance(n, lo, hi, m0 - d), m0)
    rise = smallest_departure(lambda d: poisson_acceptance(n, lo, hi, m0 + d),
                              max(4 * hi, hi + 20 / n))
    return Sensitivity(c.key, "exact Poisson", n, fall, rise, (m0 > 0, True),
                       accepts_published=poisson_acceptance(n, lo, hi, m0))


def in_interval(c: iv.InInterval, published: Values, measured: Values) -> Sensitivity:
    """InInterval: a printed value's rounding interval rejects any value outside it; a bootstrap
    interval is read as a normal estimate with the interval's standard error (its half-width
    over 1.96), at the published n."""
    lo, hi = published[c.interval_key]
    v0 = float(published[c.key])
    if c.rounding:
        return Sensitivity(c.key, f"a printed value's rounding interval: a fall over {v0 - lo:.3g} "
                           f"or a rise over {hi - v0:.3g} is always rejected", None,
                           v0 - lo, hi - v0, statistical=False)
    se = (hi - lo) / (2 * Z95)
    if se <= 0:
        return Sensitivity(c.key, "an interval of no width: any change is rejected",
                           statistical=False)
    return _scaled(c.key, v0, se, lo, hi)


def _scaled(key: str, v0: float, se: float, lo: float, hi: float,
            spread: str = "the bootstrap interval's") -> Sensitivity:
    """An estimate v0 + d + se·Z accepted inside [lo, hi]; departures in the value's units."""
    z = normal_draws()

    def acceptance(sign: int) -> Callable[[float], float]:
        return lambda d: float(((v0 + sign * d + se * z >= lo)
                                & (v0 + sign * d + se * z <= hi)).mean())

    reach = (hi - lo) + 10 * se
    return Sensitivity(key, f"normal model with {spread} spread; seeded "
                       f"simulation, {SIMULATED_DRAWS} draws", None,
                       smallest_departure(acceptance(-1), reach),
                       smallest_departure(acceptance(+1), reach),
                       accepts_published=acceptance(+1)(0.0))


def covers_published(c: iv.CoversPublished, published: Values, measured: Values) -> Sensitivity:
    """CoversPublished: the measured interval (half-width w, standard error w/1.96) must contain
    the published value; an estimate moved by d is rejected where it lands more than w away."""
    interval = measured.get(c.interval_key)
    if not isinstance(interval, (list, tuple)) or len(interval) != 2 or None in interval:
        return Sensitivity(c.key, "known after a run: the measured interval's width sets it",
                           statistical=False)
    lo, hi = interval
    w = (hi - lo) / 2
    if w <= 0:
        return Sensitivity(c.key, "a measured interval of no width: any change is rejected",
                           statistical=False)
    se = w / Z95
    return _scaled(c.key, 0.0, se, -w, w, "the measured interval's")


def discrete(c: Any, published: Values, measured: Values) -> Sensitivity:
    """A peak or a choice within ±tolerance steps: a move of one step more is always rejected."""
    unit = "layer" if isinstance(c, iv.PeakLayer) else "grid step"
    return Sensitivity(c.key, f"no sampling model: a move of {c.tolerance + 1} {unit}s or more "
                       f"is always rejected", statistical=False)


def exact(c: Any, published: Values, measured: Values) -> Sensitivity:
    """An exact criterion (identities, fire-once, equalities, bounds): any change is rejected."""
    if isinstance(c, Recorded):
        return Sensitivity("(recorded)", "nothing judged: recorded and pinned only",
                           statistical=False)
    what = "any value over the bound is rejected" if isinstance(c, AtMost) else \
        "exact: any change is rejected"
    return Sensitivity(getattr(c, "key", "(all)"), what, statistical=False)


KINDS: dict[type, Callable[..., Sensitivity]] = {
    iv.Binomial: binomial, iv.BinomialRate: binomial_rate, iv.BinomialAtMost: binomial_at_most,
    iv.CurveBinomial: curve_binomial, iv.PoissonMean: poisson_mean, iv.InInterval: in_interval,
    iv.CoversPublished: covers_published, iv.PeakLayer: discrete, iv.NeighbourOf: discrete,
}


def sensitivities(criterion: Any, published: Mapping[str, Any],
                  measured: Mapping[str, Any]) -> list[Sensitivity]:
    """Each part of a criterion's sensitivity at the measured n (the published values stand in
    for the measured ones before a run)."""
    if isinstance(criterion, AllOf):
        return [s for part in criterion.parts for s in sensitivities(part, published, measured)]
    return [KINDS.get(type(criterion), exact)(criterion, published, measured)]
