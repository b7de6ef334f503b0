"""Judging simulated measurements with a criterion, for the sensitivity tests (issue 47)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from harness.criteria.sensitivity import Sensitivity, sensitivities

DRAWS = 20_000
SLACK = 0.015  # five standard errors of a rate near 0.8 over DRAWS draws


def rejected(criterion: Any, published: dict, draws: list[dict[str, Any]]) -> float:
    """The share of measured dicts the criterion rejects, each distinct one judged once."""
    seen = Counter(tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                for k, v in d.items())) for d in draws)
    fails = sum(count for key, count in seen.items()
                if not criterion.judge({k: list(v) if isinstance(v, tuple) else v
                                        for k, v in key}, published).ok)
    return fails / len(draws)


def one(criterion: Any, published: dict, measured: dict | None = None) -> Sensitivity:
    """The criterion's one sensitivity for `published` (and what was `measured`)."""
    [found] = sensitivities(criterion, published, measured or {})
    return found
