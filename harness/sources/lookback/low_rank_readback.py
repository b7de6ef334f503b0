"""Seed 003 §7's low-rank writes read back (issue 36): the study recorded one answer per held-out
row for each write (unrestricted, each fitted rank, each random control), at the ranks its sizes
declare; each score counts those answers, recounted here; and the first, middle and last held-out
rows, re-run one row at a time through the experiment's own read and write (unrestricted, the
first, middle and last fitted ranks, and the middle rank's first random control), answer what the
batched write recorded, in the mode under test.
"""
from __future__ import annotations

from harness.sources.lookback.low_rank import (RANDOM_BASIS_SEEDS, LowRank, label, projected,
                                               random_basis, swap_pairs, written_logits)
from harness.sources.lookback.positions import row_layout, state_positions
from harness.sources.lookback.readback_record import Readback, answered, spread
from harness.sources.lookback.runner import LookbackRunner, score
from harness.sources.lookback.task import Counterfactual

BY = "the batched write"


def low_rank_gaps(runner: LookbackRunner, rows: list[Counterfactual], study: LowRank) -> list[str]:
    """§7: the held-out half, the ranks the sizes declare (up to the fitted basis's rows) and one
    recorded answer per held-out row for every write."""
    held = len(rows) - len(rows) // 2
    ranks = [k for k in runner.sizes.low_rank_ranks if k <= study.directions]
    gaps = [f"held out {study.held_out} rows, expected {held} (the second half of {len(rows)})"
            ] if study.held_out != held else []
    if study.ranks != ranks:
        gaps.append(f"ranks {study.ranks}, expected {ranks} (the sizes' low_rank_ranks)")
    writes = [label()] + [label(k) for k in ranks] + [label(k, s) for k in ranks
                                                      for s in RANDOM_BASIS_SEEDS]
    gaps += [f"{w}: {len(study.answers.get(w, []))} answers recorded for {held} rows"
             for w in writes if len(study.answers.get(w, [])) != held]
    return gaps


def rescored(held: list[Counterfactual], study: LowRank) -> list[str]:
    """§7: each recorded score against the fraction of its recorded answers on the target."""
    def counted(w: str) -> float:
        return score(study.answers.get(w, []), held, "target") if held else 0.0

    wanted = {"unrestricted": (study.unrestricted, counted(label()))}
    for i, k in enumerate(study.ranks):
        wanted[f"fitted at rank {k}"] = (study.fitted[i], counted(label(k)))
        mean = sum(counted(label(k, s)) for s in RANDOM_BASIS_SEEDS) / len(RANDOM_BASIS_SEEDS)
        wanted[f"random at rank {k}"] = (study.random[i], round(mean, 4))
    return [f"{what} is {got}, its recorded answers give {want}"
            for what, (got, want) in wanted.items() if got != want]


def low_rank_rows(runner: LookbackRunner, rows: list[Counterfactual], study: LowRank,
                  found: Readback) -> None:
    """§7: the first, middle and last held-out rows re-run alone, each write's answer against the
    one the batched write recorded."""
    held = rows[len(rows) // 2:]
    found.mismatched += rescored(held, study)
    if not held:
        return
    state, state_rev = state_positions(row_layout(runner, held[0]))
    middle = study.ranks[len(study.ranks) // 2:][:1]  # the middle rank, if any
    for r in spread(range(len(held))):
        h_dst, h_src = swap_pairs(runner, [held[r]], study.layer, state, state_rev)
        bases = {label(): None, **{label(k): study.fitted_basis[:k] for k in spread(study.ranks)},
                 **{label(k, RANDOM_BASIS_SEEDS[0]): random_basis(
                     h_dst.shape[-1], k, RANDOM_BASIS_SEEDS[0], like=h_src) for k in middle}}
        for w, basis in bases.items():
            what = f"{w}: row {r}"
            found.cells.append(what)
            recorded = study.answers.get(w, [])
            if r >= len(recorded):
                found.mismatched.append(f"{what}: not recorded")
                continue
            new = projected(h_dst, h_src, basis)
            answered(runner, found, what, BY, recorded[r],
                     written_logits(runner, [held[r]], study.layer, state, new)[0])


def low_rank(runner: LookbackRunner, rows: list[Counterfactual], study: LowRank) -> Readback:
    """§7's low-rank writes read back."""
    found = Readback(["low rank"], low_rank_gaps(runner, rows, study))
    low_rank_rows(runner, rows, study, found)
    return found
