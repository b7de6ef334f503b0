"""A criterion to suggest for a drafted number, from what its printed form says of its uncertainty.

- a rate with its n (`13/20`): the binomial interval of the published count, which
  harness.criteria.Binomial judges (95% Clopper-Pearson);
- a fraction with its n (`0.856 (n=104)`): harness.criteria.BinomialRate;
- a mean with a printed interval (`0.42 [0.31, 0.55]`): that interval (InInterval);
- a peak layer: within ±1 layer (PeakLayer);
- a curve of rates at one n: every point in its binomial interval (CurveBinomial);
- anything else: recorded, not judged (Recorded), with a note saying the researcher must choose,
  since the text gives no uncertainty to judge it by.

The intervals shown are computed here with the standard library (the drafting command runs
where nothing is installed); harness.criteria computes the same with scipy when judging."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from harness.drafting.numbers import Form
from harness.drafting.printed import PrintedNumber


@dataclass(frozen=True)
class Suggestion:
    """A criterion as Python source, the published values it reads, and why it was chosen."""

    criterion: str  # e.g. 'Binomial("recovered", "recovered_n")'
    published: dict[str, Any] = field(hash=False)
    reason: str
    chosen: bool = True  # False: a placeholder the researcher must replace

    @property
    def names(self) -> tuple[str, ...]:
        """The harness.criteria names the criterion uses."""
        return tuple(n for n in ("Binomial", "BinomialRate", "CurveBinomial", "InInterval",
                                 "PeakLayer", "Recorded")
                     if self.criterion.startswith(n + "("))


def _log_pmf(k: int, n: int, p: float) -> float:
    if p in (0.0, 1.0):
        return 0.0 if (p == 0.0 and k == 0) or (p == 1.0 and k == n) else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def _cdf(k: int, n: int, p: float) -> float:
    return min(1.0, sum(math.exp(_log_pmf(i, n, p)) for i in range(0, k + 1)))


def _solve(f, increasing: bool) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if (f(mid) < 0) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact two-sided binomial interval for k successes in n trials (standard library)."""
    if not 0 <= k <= n or n <= 0:
        raise ValueError(f"need 0 <= k <= n and n > 0, got k={k}, n={n}")
    alpha = 1.0 - confidence
    # lo: P(X >= k | p) = alpha/2, rising in p; hi: P(X <= k | p) = alpha/2, falling in p
    lo = 0.0 if k == 0 else _solve(lambda p: (1 - _cdf(k - 1, n, p)) - alpha / 2, True)
    hi = 1.0 if k == n else _solve(lambda p: _cdf(k, n, p) - alpha / 2, False)
    return lo, hi


def plain(text: str, value: float) -> int | float:
    """A printed number as the Python value a declaration holds: an int where it was printed as
    one, else the value rounded to the digits printed."""
    bare = text.rstrip("%").replace("−", "-")
    if "%" not in text and "." not in bare and "e" not in bare.lower():
        return int(float(bare))
    digits = len(bare.split(".")[1].split("e")[0]) if "." in bare else 0
    return round(value, digits + (2 if text.endswith("%") else 0) + 6)


def _interval(k: int, n: int) -> str:
    lo, hi = clopper_pearson(k, n)
    return f"[{lo:.3f}, {hi:.3f}]"


def _single(key: str, p: PrintedNumber) -> Suggestion:
    r = p.reading
    n_key = f"{key}_n"
    if r.form is Form.RATE and r.count is not None and r.n:
        return Suggestion(f'Binomial("{key}", "{n_key}")', {key: r.count, n_key: r.n},
                          f"a rate with its n: {r.count}/{r.n}, 95% binomial interval "
                          f"{_interval(r.count, r.n)}")
    if r.form is Form.FRACTION and r.n:
        k = round(r.value * r.n)
        return Suggestion(f'BinomialRate("{key}", "{n_key}")', {key: plain(r.text, r.value),
                                                                n_key: r.n},
                          f"a rate with its n: {r.text} of n={r.n} (~{k}/{r.n}), 95% binomial "
                          f"interval {_interval(min(max(k, 0), r.n), r.n)}")
    if r.form is Form.INTERVAL and r.interval is not None:
        lo, hi = r.interval
        return Suggestion(f'InInterval("{key}", "{key}_interval")',
                          {key: r.value, f"{key}_interval": [lo, hi]},
                          f"a mean with its printed interval [{lo}, {hi}]")
    if r.form is Form.PEAK and r.layer is not None:
        return Suggestion(f'PeakLayer("{key}_curve", layer_key="{key}", tolerance=1)',
                          {key: r.layer},
                          f"a peak layer: the measured curve ({key}_curve) peaks within ±1 layer "
                          f"of {r.layer}")
    if r.form is Form.FRACTION or 0 <= r.value <= 1 and "." in r.text:
        return Suggestion("Recorded()", {key: plain(r.text, r.value)},
                          "choose: a fraction printed without its n; give its n and use "
                          f'BinomialRate("{key}", "{n_key}"), or a tolerance', chosen=False)
    return Suggestion("Recorded()", {key: plain(r.text, r.value)},
                      "choose: no uncertainty printed; Exact for a deterministic count, id or "
                      "shape, else a tolerance or an interval", chosen=False)


def _layer_labels(numbers: tuple[PrintedNumber, ...]) -> list[int] | None:
    labels = [p.label for p in numbers]
    if "layer" in numbers[0].name.lower() and all(lab.lstrip("-").isdigit() for lab in labels):
        return [int(lab) for lab in labels]
    return None


def _series(key: str, numbers: tuple[PrintedNumber, ...]) -> Suggestion:
    readings = [p.reading for p in numbers]
    values = [r.value if r.form is Form.RATE else plain(r.text, r.value) for r in readings]
    n_key = f"{key}_n"
    ns = {r.n for r in readings}
    if all(r.form in (Form.RATE, Form.FRACTION) for r in readings) and len(ns) == 1 and \
            None not in ns:
        n = ns.pop()
        return Suggestion(f'CurveBinomial("{key}", "{n_key}")',
                          {key: [plain(r.text, r.value) if r.form is Form.FRACTION else r.value
                                 for r in readings], n_key: n},
                          f"a curve of {len(readings)} rates at n={n}: every point inside its 95% "
                          "binomial interval")
    layers = _layer_labels(numbers)
    if layers is not None:
        peak = layers[max(range(len(values)), key=lambda i: values[i])]
        return Suggestion(f'PeakLayer("{key}", layer_key="{key}_peak_layer", tolerance=1)',
                          {key: values, f"{key}_peak_layer": peak, f"{key}_layers": layers},
                          f"a curve over layers {layers}: its peak (layer {peak}) within ±1 "
                          "layer; choose a criterion for the points too")
    return Suggestion("Recorded()", {key: values},
                      f"choose: {len(values)} values printed by one line or column; Exact for "
                      "deterministic values, CurveBinomial with their n for rates", chosen=False)


def suggest(key: str, numbers: tuple[PrintedNumber, ...]) -> Suggestion:
    """The criterion a draft claim's numbers suggest, with its published values under `key`."""
    return _single(key, numbers[0]) if len(numbers) == 1 else _series(key, numbers)
