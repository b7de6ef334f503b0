"""Seed 001 §4–§6 against the plain reference (issue 49): each crossing, the challenged screen,
the content effects, the joint crossing and the grid, per `sampled` main family as the study
recorded it beside harness/sources/heads/reference.py's plain prefills; each summary
(cohort means, paired bootstraps, counts, the choice of head) beside the seed's summary of the
reference's values (the study's record for a family the reference did not re-run)."""
from __future__ import annotations

from itertools import product
from typing import Any, Mapping, Sequence

import numpy as np

from harness.models.handle import Loaded
from harness.reference import EXACTLY, Comparison, compare
from harness.sources.heads import reference, reference_summaries
from harness.sources.heads.against_reference import (Rows, column, families_side_by_side,
                                                     heads_of, picked, rerun, screen_rows,
                                                     summary)
from harness.sources.heads.challenged_screen import ChallengedScreen, Support
from harness.sources.heads.content_effects import ContentEffects
from harness.sources.heads.crossings import FirstCrossing
from harness.sources.heads.grid import Grid, JointCrossing
from harness.sources.heads.observations import HeadsLab
from harness.sources.heads.screens import OpeningScreen
from harness.sources.heads.sizes import HeadsSizes
from harness.sources.heads.sweep import Site
from harness.sources.heads.task import Family, ProblemSets

Cells = dict[str, reference.Cell]
BOTH = "followup.both.OD"


def recorded_rows(lab: HeadsLab, families: Sequence[Family], condition: str) -> dict[str, list]:
    """A condition's readouts per family as the study recorded them (`reference.Crossings.row`)."""
    return {f.family_id: [o.probability("L"), o.probability("C"), o.margin("C", "L"),
                          o.predicts("L"), o.predicts("C"), o.top_label()]
            for f in families if lab.has_case(f, condition)
            for o in [lab.observation(f, condition)]}


def side_by_side(model: Loaded, lab: HeadsLab, families: Sequence[Family], blocks: Sequence[int],
                 wanted: Cells, recorded: Mapping[str, str] | None = None
                 ) -> tuple[Rows, Rows, dict[str, list[Any]]]:
    """Each cell per re-run family, the study's record (under `recorded`'s condition, else the
    cell's seed name) beside the reference; and every family's readouts per cell."""
    redone: dict[str, dict[str, list]] = {name: {} for name in wanted}
    for f in rerun(families):
        crossings = reference.Crossings(model, f, blocks)
        for name, cell in wanted.items():
            redone[name][f.family_id] = crossings.row(cell)
    study: Rows = {}
    want: Rows = {}
    every = {name: families_side_by_side(
        name, families, recorded_rows(lab, families, (recorded or {}).get(name, name)),
        redone[name], study, want) for name in wanted}
    return study, want, every


def mean(values: Sequence[Any], k: int) -> float:
    """The families' mean of one readout, as the study's cohort rows take it."""
    return float(np.asarray(column(values, k), dtype=np.float64).mean())


def count(values: Sequence[Any], k: int) -> int:
    return sum(bool(v and v[k]) for v in values)


def paired(every: Mapping[str, list[Any]], treated: str, base: str, k: int) -> list[float]:
    """§1 paired_summary: the content-seed bootstrap of each family's treated minus base."""
    return reference_summaries.bootstrap([t - b for t, b in zip(column(every[treated], k),
                                                      column(every[base], k))],
                               reference_summaries.PAIRED_SEED)


def first_crossing(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab,
                   at: Site, first: OpeningScreen, found: FirstCrossing) -> Comparison:
    """§4: native O, OO and OD at the site's block and the opening screen's head, per family; the
    cohort rows (mean p(L), mean p(C), L answers, families) and main family 0's example."""
    fams, (b, h) = families.main[:sizes.main_families], (at.block, first.retrieval_head)
    cells = {"native.O": (), f"AV.{b}.OO": ((b, h, "OO"),), f"AV.{b}.OD": ((b, h, "OD"),)}
    study, want, every = side_by_side(model, lab, fams, at.blocks, cells)
    for name in ("native.O", f"AV.{b}.OD"):
        want[name] = [mean(every[name], 0), mean(every[name], 1), count(every[name], 3), len(fams)]
    for row in found.rows:
        study[row.condition] = [row.mean_p_L, row.mean_p_C, row.L_predictions, row.n]
    want["example"] = [every[name][0][:3] + every[name][0][5:] for name in ("native.O", f"AV.{b}.OD")]
    study["example"] = [[r.p_L, r.p_C, r.margin_C_minus_L, r.top] for r in found.example]
    return compare("heads_first_crossing", study, want, EXACTLY)


def challenged(model: Loaded, families: ProblemSets, sizes: HeadsSizes, at: Site,
               first: OpeningScreen, found: ChallengedScreen) -> Comparison:
    """§5: the next block's deletions under the first head's crossed message (X), on `sampled`
    heads and the ranking's first two; the winner, runner-up, gap and lone wins where every head
    was compared."""
    fams, heads, block = families.main[:sizes.main_families], heads_of(model, sizes), at.blocks[1]
    s = found.screen
    rows = picked(heads, s.ranking("X")[:2])
    redone = reference.challenged(model, rerun(fams), (at.block, first.retrieval_head),
                                            block, rows)
    study: Rows = {}
    want: Rows = {}
    every = screen_rows(s, "X", block, rows, fams, redone, study, want)
    if rows == heads:
        order, top = reference_summaries.ranked({h: want[f"X {block}.{h}"]["loss_pL"][0] for h in heads})
        losses = [{h: float(every[h][i][0]) for h in heads} for i in range(len(fams))
                  if all(every[h][i] for h in heads)]
        gap = reference_summaries.bootstrap([row[order[0]] - row[order[1]] for row in losses],
                                  reference_summaries.SCREEN_SEED, reference_summaries.SCREEN_DRAWS)
        want["choice"] = [top, order, gap, reference_summaries.lone_wins(losses, order[0])]
        study["choice"] = [found.support_head, [h for h, _ in found.ranking], summary(found.gap),
                           found.unique_wins]
    return compare("heads_challenged", study, want, EXACTLY)


def content(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab, at: Site,
            first: OpeningScreen, support: Support, found: ContentEffects) -> Comparison:
    """§5: OO, OD and OD.label at both sites per family, and each site's four paired effects."""
    fams = families.main[:sizes.main_families]
    sites = {at.block: first.retrieval_head, support.block: support.head}
    cells = {f"AV.{b}.{p}": ((b, h, p),) for b, h in sites.items() for p in ("OO", "OD", "OD.label")}
    study, want, every = side_by_side(model, lab, fams, at.blocks, cells)
    effects = {"probability": ("OD", "OO", 1), "margin": ("OD", "OO", 2),
               "label_minus_full": ("OD.label", "OD", 1), "label_margin": ("OD.label", "OO", 2)}
    for b in sites:
        want[f"effects {b}"] = {name: paired(every, f"AV.{b}.{t}", f"AV.{b}.{o}", k)
                                for name, (t, o, k) in effects.items()}
        if b in found.effects:
            study[f"effects {b}"] = {n: summary(s) for n, s in found.effects[b].items()}
    want["sites"], study["sites"] = sites, dict(found.sites)
    return compare("heads_content", study, want, EXACTLY)


def joint(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab, at: Site,
          first: OpeningScreen, support: Support, found: JointCrossing) -> Comparison:
    """§6: each crossing alone and both together per family; mean p(C) of each with its
    bootstrap, C's wins under both, and main family 0's example."""
    fams = families.main[:sizes.main_families]
    (b1, h1), (b2, h2) = (at.block, first.retrieval_head), (support.block, support.head)
    cells = {"native.O": (), f"AV.{b1}.OD": ((b1, h1, "OD"),), f"AV.{b2}.OD": ((b2, h2, "OD"),),
             BOTH: ((b1, h1, "OD"), (b2, h2, "OD"))}
    study, want, every = side_by_side(model, lab, fams, at.blocks, cells)
    want["p(C)"] = {c: reference_summaries.bootstrap(column(every[c], 1), reference_summaries.PAIRED_SEED)
                    for c in list(cells)[1:]}
    study["p(C)"] = {c: summary(s) for c, s in found.summaries.items()}
    want["C wins"], study["C wins"] = [count(every[BOTH], 4), len(fams)], [found.c_wins, found.n]
    want["example"] = [every[c][0][:3] + every[c][0][5:] for c in cells]
    study["example"] = [[r.p_L, r.p_C, r.margin_C_minus_L, r.top] for r in found.example]
    return compare("heads_joint", study, want, EXACTLY)


def grid_cells(b1: int, h1: int, b2: int, h2: int) -> dict[tuple[str, str], tuple[str, Any]]:
    """§6's nine cells: each treatment pair's seed condition name and its writes (recompute:
    nothing, zero: zeros, cross: the crossed message) at the two sites."""
    names = {("normal", "normal"): "native.O", ("normal", "zero"): f"screen.O.head{h2}.zero",
             ("normal", "cross"): f"AV.{b2}.OD", ("zero", "normal"): f"zero.{b1}",
             ("zero", "zero"): f"zero.{b1}.{b2}", ("zero", "cross"): f"followup.reverse{b2}.zero{b1}",
             ("cross", "normal"): f"AV.{b1}.OD", ("cross", "zero"): f"screen.X.head{h2}.zero",
             ("cross", "cross"): BOTH}
    what = {"zero": "zero", "cross": "OD"}
    return {pair: (names[pair], tuple((b, h, what[t]) for (b, h), t in zip(((b1, h1), (b2, h2)), pair)
                                      if t != "normal"))
            for pair in product(("normal", "zero", "cross"), repeat=2)}


def grid(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab, at: Site,
         first: OpeningScreen, support: Support, found: Grid) -> Comparison:
    """§6: the nine cells per family (the study's record under the condition it maps each cell
    to), each cell's mean p(C) and C−L margin, crossing's paired increase over zeroing the second
    head under the first crossing, and the deletion controls' counts."""
    fams = families.main[:sizes.main_families]
    b1, h1, b2, h2 = at.block, first.retrieval_head, support.block, support.head
    seed = grid_cells(b1, h1, b2, h2)
    names = {"_".join(pair): name for pair, (name, _) in seed.items()}
    cells = {"_".join(pair): writes for pair, (_, writes) in seed.items()}
    mapped = {"_".join(pair): c for pair, c in found.conditions.items()}
    study, want, every = side_by_side(model, lab, fams, at.blocks, cells, mapped)
    want["conditions"], study["conditions"] = names, mapped
    for name in cells:
        want[name] = [reference_summaries.bootstrap(column(every[name], k), reference_summaries.PAIRED_SEED)
                      for k in (1, 2)]
        pair = tuple(name.split("_"))
        if pair in found.p_C:
            study[name] = [summary(found.p_C[pair]), summary(found.margin[pair])]
    want["cross minus zero"] = [paired(every, "cross_cross", "cross_zero", k) for k in (1, 2)]
    study["cross minus zero"] = [summary(found.both_minus_zero),
                                 summary(found.both_minus_zero_margin)]
    want["controls"] = [count(every["zero_zero"], 3), len(fams), f"{b1}.{h1}"]
    study["controls"] = [found.zero_zero_survivors, found.n, found.first_site]
    return compare("heads_grid", study, want, EXACTLY)
