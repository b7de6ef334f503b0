"""Known-answer criteria: a measured curve against what an organism's construction planted
(issue 29); `published` here is the manifest's "planted" block."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.criteria.base import Check, Criterion, Values


def _rounded(curve) -> list[float]:
    return [round(v, 3) for v in curve]


@dataclass(frozen=True)
class StepAt:
    """A per-layer curve (one value per layer, from layer 0) is at most `low` before the layer
    `at` names and at least `high` from it on: a mechanism that appears at a known layer."""

    key: str
    at: str
    high: float = 0.9
    low: float = 0.1

    @property
    def curves(self) -> tuple[str, ...]:
        """The measured curves it judges."""
        return (self.key,)

    def describe(self) -> str:
        return f"{self.key} at most {self.low} before layer {self.at}, at least {self.high} from it"

    def judge(self, measured: Values, published: Values) -> Check:
        curve, layer = measured[self.key], published[self.at]
        ok = (all(v <= self.low for v in curve[:layer])
              and all(v >= self.high for v in curve[layer:]) and layer < len(curve))
        return Check(ok, f"{self.key} {_rounded(curve)}, step at layer {layer}")


@dataclass(frozen=True)
class Window:
    """A per-layer curve is at least `high` at the planted layers (`within` names a [first, last]
    pair) and at most `low` at every other layer: a mechanism that lives between two layers."""

    key: str
    within: str
    high: float = 0.9
    low: float = 0.1

    @property
    def curves(self) -> tuple[str, ...]:
        """The measured curves it judges."""
        return (self.key,)

    def describe(self) -> str:
        return (f"{self.key} at least {self.high} at the layers {self.within} names, at most "
                f"{self.low} elsewhere")

    def judge(self, measured: Values, published: Values) -> Check:
        curve, (first, last) = measured[self.key], published[self.within]
        ok = last < len(curve) and all(
            v >= self.high if first <= layer <= last else v <= self.low
            for layer, v in enumerate(curve))
        return Check(ok, f"{self.key} {_rounded(curve)}, planted at layers {first}-{last}")


@dataclass(frozen=True)
class FittedNotRandom:
    """A variable planted in `rank` residual directions: subspaces fitted to the swap carry it
    (IIA at least `high` at every rank from the planted one), random ones do not (at most `low`
    at every rank up to a quarter of the width, where a random subspace holds too little of
    the variable's direction to flip its sign)."""

    rank: str
    high: float = 0.9
    low: float = 0.1

    curves = ("fitted", "random")  # the measured curves it judges, by rank

    def describe(self) -> str:
        return (f"fitted IIA at least {self.high} from the planted {self.rank}, random at most "
                f"{self.low} up to a quarter of the width")

    def judge(self, measured: Values, published: Values) -> Check:
        ranks, planted, width = measured["ranks"], published[self.rank], measured["directions"]
        fitted = [v for k, v in zip(ranks, measured["fitted"]) if k >= planted]
        random = [v for k, v in zip(ranks, measured["random"]) if k <= width // 4]
        ok = bool(fitted) and bool(random) and min(fitted) >= self.high and max(random) <= self.low
        return Check(ok, f"fitted {_rounded(measured['fitted'])}, random "
                         f"{_rounded(measured['random'])} at ranks {ranks}; planted rank {planted}")


@dataclass(frozen=True)
class IsPlanted:
    """The measured value is the one the construction planted (`planted` names it)."""

    key: str
    planted: str

    def describe(self) -> str:
        return f"{self.key} is the planted {self.planted}"

    def judge(self, measured: Values, published: Values) -> Check:
        m, p = measured[self.key], published[self.planted]
        return Check(m == p, f"{self.key}: measured {m!r}, planted {p!r}")


@dataclass(frozen=True)
class KnownAnswer:
    """What an organism's construction planted for this measurement: on a profile that runs an
    organism whose manifest plants `planted` (a key of its "planted" block), `criterion`, judged
    against that block, says "recovered" or "missed", beside the verdict (which stays "not
    applicable")."""

    criterion: Criterion
    planted: str

    def describe(self) -> str:
        return f"{self.criterion.describe()}, against the organism's planted {self.planted}"


def known_answer_checks(known: dict[str, KnownAnswer], studies: dict[str, Any],
                        planted: dict[str, Any]) -> dict[str, Any]:
    """For each claim in `known`, a check (no failures: an empty list) that runs its study (a
    callable in `studies` returning what the claim's known answer reads) and judges the result
    against `planted`, the organism's manifest block."""

    def judged(claim_id: str):
        def check() -> list[str]:
            result = known[claim_id].criterion.judge(studies[claim_id](), planted)
            return [] if result.ok else [f"missed the planted {known[claim_id].planted}: "
                                         f"{result.detail}"]
        return check

    return {f"{claim_id} (known answer)": judged(claim_id) for claim_id in known}
