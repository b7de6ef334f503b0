"""Criteria: how a measured value is judged against a published one, from its uncertainty."""
from harness.criteria.base import AllOf, Check, Criterion, all_of
from harness.criteria.exact import (AtMost, Every, Exact, Length, NoneFailed, NoneOf, Recorded,
                                    Same)
from harness.criteria.intervals import (Binomial, BinomialAtMost, BinomialRate, CoversPublished,
                                        CurveBinomial, InInterval, NeighbourOf, PeakLayer,
                                        PoissonMean, clopper_pearson, garwood, published_interval)
from harness.criteria.planted import FittedNotRandom, IsPlanted, KnownAnswer, StepAt, Window

__all__ = [
    "AllOf", "AtMost", "Binomial", "BinomialAtMost", "BinomialRate", "Check", "CoversPublished",
    "Criterion", "CurveBinomial", "Every", "Exact", "FittedNotRandom", "InInterval", "IsPlanted", "KnownAnswer",
    "Length", "NeighbourOf", "NoneFailed", "NoneOf", "PeakLayer", "PoissonMean", "Recorded", "Same",
    "StepAt", "Window", "all_of",
    "clopper_pearson", "garwood", "published_interval",
]
