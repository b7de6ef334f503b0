"""Seed 003 §7's low-rank study against the plain reference (issue 49): the layer (the recorded
reversed curve's peak, first of equals), the halves and the basis's counts, every score as the
reference counts the study's recorded answers, and on the first, middle and last held-out rows
each write's recorded answer against a plain forward writing the reference's own fit (or seed's
random basis)."""
from __future__ import annotations

from harness.reference import Comparison, compare, sampled
from harness.sources.lookback import reference_low_rank as plain_low_rank
from harness.sources.lookback.against_reference import (AGREEMENT, Row, recorded_at, seed_rows,
                                                        story)
from harness.sources.lookback.interchange import Sweep
from harness.sources.lookback.low_rank import LowRank, label
from harness.sources.lookback.reference import Plain, Swap, rate
from harness.sources.lookback.reference_sweeps import peak
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.sizes import LookbackSizes


def _score(answers: list[str], swaps: list[Swap | None]) -> float:
    """The fraction of the recorded answers on each row's target (the seed's row's)."""
    return rate([s is not None and a == s.target for a, s in zip(answers, swaps)], 4)


def low_rank(run: LookbackRunner, said: str, at: LookbackSizes, patched: list[Row],
             reversed_: Sweep, study: LowRank) -> Comparison:
    """§7 against the plain reference."""
    plain, got, want = Plain(run.model), {}, {}
    layer = peak(reversed_.iia, reversed_.layers) if reversed_.iia else -1
    got["layer"], want["layer"] = study.layer, layer
    swaps = seed_rows("binding", said, at, patched)
    half = len(patched) // 2
    held, held_swaps = patched[half:], swaps[half:]
    fitted = plain_low_rank.fit(plain, [s for s in swaps[:half] if s is not None], layer)
    ranks = [k for k in at.low_rank_ranks if k <= fitted.basis.shape[0]]
    got["counts"] = {"fitted on": study.fitted_on, "held out": study.held_out,
                     "difference vectors": study.difference_vectors,
                     "directions": study.directions, "ranks": study.ranks}
    want["counts"] = {"fitted on": half, "held out": len(held),
                      "difference vectors": fitted.vectors, "directions": fitted.basis.shape[0],
                      "ranks": ranks}
    seeds = plain_low_rank.SEEDS
    scored = {w: _score(study.answers.get(label(*w), []), held_swaps)
              for w in [(None, None)] + [(k, s) for k in ranks for s in (None, *seeds)]}
    got["scores"] = {"unrestricted": study.unrestricted, "fitted": study.fitted,
                     "random": study.random}
    want["scores"] = {"unrestricted": scored[None, None],
                      "fitted": [scored[k, None] for k in ranks],
                      "random": [round(sum(scored[k, s] for s in seeds) / len(seeds), 4)
                                 for k in ranks]}
    for i in sampled(len(held)):
        recorded = {label(*w): recorded_at(study.answers.get(label(*w), []), i) for w in scored}
        got[f"held-out row {i}"] = {"story": story(held[i].clean), "target": held[i].target,
                                    "answers": recorded}
        swap = held_swaps[i]
        if swap is None:
            want[f"held-out row {i}"] = "not a row of the seed's set"
            continue
        found = plain_low_rank.held_out(plain, swap, layer, fitted, ranks, seeds)
        want[f"held-out row {i}"] = {
            "story": story(swap.clean), "target": swap.target,
            "answers": {label(*w): found[w].matching(recorded[label(*w)]) for w in found}}
    return compare("low rank", got, want, AGREEMENT)
