"""Seed 001 §2–§3 and §7 against the plain reference (issue 49): each study's numbers on a few
of its cells (blocks, heads) and families, read from what the study recorded, beside the same
numbers from harness/sources/heads/reference.py; each summary beside the seed's summary of the
reference's values (and, for a family the reference did not re-run, of the study's record).
against_reference_crossings.py holds §4–§6."""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

from harness.models.handle import Loaded
from harness.reference import EXACTLY, Comparison, compare, sampled
from harness.sources.heads import reference, reference_summaries
from harness.sources.heads.anchors.machinery import RecordCounts
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.observations import RESIDUAL_SEED, HeadsLab
from harness.sources.heads.screens import MainScreen, OpeningScreen, Screen
from harness.sources.heads.sizes import HeadsSizes
from harness.sources.heads.sweep import ResidualSweep, Site
from harness.sources.heads.task import Family, ProblemSets

Rows = dict[str, Any]


def picked(items: Sequence[int], read: Iterable[int | None] = ()) -> list[int]:
    """`sampled` of the items, and every one of them a finding reads."""
    return sorted({items[i] for i in sampled(len(items))} | {r for r in read if r in items})


def rerun(families: Sequence[Family]) -> list[Family]:
    """The families the reference re-runs: `sampled` of the set."""
    return [families[i] for i in sampled(len(families))]


def blocks_of(model: Loaded, sizes: HeadsSizes) -> list[int]:
    """§2's blocks: every block of the config, or those the profile's sizes name."""
    n = model.hf.config.num_hidden_layers
    return list(range(n)) if sizes.sweep_blocks is None else [b % n for b in sizes.sweep_blocks]


def heads_of(model: Loaded, sizes: HeadsSizes) -> list[int]:
    """§2–§5's screened heads: every query head of the config, or those the sizes name."""
    n = model.hf.config.num_attention_heads
    return list(range(n)) if sizes.screen_heads is None else [h % n for h in sizes.screen_heads]


# Twelve families' values, irregular: their resampled means take thousands of values, so each
# interval bound moves with the bootstrap's seed.
SPREAD = (0.013, 0.271, 0.094, 0.658, 0.412, 0.887, 0.305, 0.529, 0.176, 0.743, 0.061, 0.934)


def summary(b: BootstrapMean) -> list[float]:
    """A study's bootstrap summary as the reference writes one."""
    return [b.mean, *b.ci95, b.n_families]


def families_side_by_side(cell: str, families: Sequence[Family], recorded: Mapping[str, Any],
                          redone: Mapping[str, Any], study: Rows, want: Rows) -> list[Any]:
    """Each re-run family's value, the study's beside the reference's (a family the study did not
    record is a row only the reference has); returns every family's value for the summaries,
    the reference's where it re-ran the family, else the study's record (None where neither)."""
    for i, f in enumerate(families):
        if f.family_id in redone:
            want[f"{cell} f{i}"] = redone[f.family_id]
            if f.family_id in recorded:
                study[f"{cell} f{i}"] = recorded[f.family_id]
    return [redone.get(f.family_id, recorded.get(f.family_id)) for f in families]


def column(values: Sequence[Any], k: int) -> list[float]:
    """The k-th number of each family's value (NaN where a family has none)."""
    return [math.nan if v is None else float(v[k]) for v in values]


def sweep(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab,
          found: ResidualSweep) -> Comparison:
    """§2: p(U), p(L) and p(D) per re-run family at `sampled` blocks and the selected one, each
    block's bootstrap summaries, and the block rule's choice where every block was compared."""
    opening, blocks = families.opening[:sizes.opening_families], blocks_of(model, sizes)
    rows = picked(blocks, [found.retrieval_block])
    redone = reference.sweep(model, rerun(opening), rows)
    # The study's bootstrap at its seed on families whose values differ (the organism's can agree
    # to the last digit, where no seed shows in their intervals, or, by the CPU's kernels, only in
    # the last digit); its row sorts first, so a seed ignored fails there on any kernels.
    study: Rows = {"a family bootstrap at its seed": summary(bootstrap_mean(SPREAD, RESIDUAL_SEED))}
    want: Rows = {"a family bootstrap at its seed": reference_summaries.bootstrap(
        SPREAD, reference_summaries.SWEEP_SEED)}
    means = {}
    for b in rows:
        condition = f"residual.layer{b:02d}"
        recorded = {f.family_id: [lab.observation(f, condition, "opening").probability(r)
                                  for r in "ULD"]
                    for f in opening if lab.has_case(f, condition, "opening")}
        every = families_side_by_side(f"block {b}", opening, recorded, redone[b], study, want)
        want[f"block {b}"] = {r: reference_summaries.bootstrap(column(every, k), reference_summaries.SWEEP_SEED)
                              for k, r in enumerate("ULD")}
        means[b] = {r: s[0] for r, s in want[f"block {b}"].items()}
        if b in found.stats:
            study[f"block {b}"] = {r: summary(found.stats[b][r]) for r in "ULD"}
    if rows == blocks:
        want["rule"], study["rule"] = reference_summaries.block_rule(means), found.retrieval_block
    return compare("heads_sweep", study, want, EXACTLY)


def screen_rows(screen: Screen, context: str, block: int, heads: Sequence[int],
                families: Sequence[Family], redone: Mapping[int, Mapping[str, list]], study: Rows,
                want: Rows) -> dict[int, list[Any]]:
    """One context of a screen at `block`: each head's effects per re-run family and its
    summaries; returns each head's effects for every family (the reference's, else the study's
    record)."""
    every = {}
    for h in heads:
        recorded = {e.family_id: [e.loss_pL, e.loss_margin, e.before_correct, e.after_correct]
                    for e in screen.effects if e.context == context and e.head == h}
        cell = f"{context} {block}.{h}"
        every[h] = families_side_by_side(cell, families, recorded, redone[h], study, want)
        want[cell] = {m: reference_summaries.bootstrap(column(every[h], k), reference_summaries.SCREEN_SEED,
                                             reference_summaries.SCREEN_DRAWS)
                      for k, m in enumerate(("loss_pL", "loss_margin"))}
        if h in screen.summary.get(context, {}):
            study[cell] = {m: summary(s) for m, s in screen.summary[context][h].items()}
    return every


def opening(model: Loaded, families: ProblemSets, sizes: HeadsSizes, at: Site,
            found: OpeningScreen) -> Comparison:
    """§2: the opening screen at the site's block, in H and O, on `sampled` heads and the one its
    finding reads; the chosen head and H's answers where every head was compared."""
    fams, heads = families.opening[:sizes.opening_families], heads_of(model, sizes)
    rows = picked(heads, [found.screen.ranking("H")[0]])
    redone = reference.screen(model, rerun(fams), at.block, at.block, rows, opening=True)
    study: Rows = {}
    want: Rows = {}
    hybrid = screen_rows(found.screen, "H", at.block, rows, fams, redone["H"], study, want)
    screen_rows(found.screen, "O", at.block, rows, fams, redone["O"], study, want)
    if rows == heads:
        order, top = reference_summaries.ranked({h: want[f"H {at.block}.{h}"]["loss_pL"][0] for h in heads})
        first = hybrid[order[0]]
        want["choice"] = [top, sum(bool(v[2]) for v in first if v), sum(bool(v[3]) for v in first if v)]
        study["choice"] = [found.retrieval_head, found.hybrid_correct_before,
                           found.hybrid_correct_after]
    return compare("heads_opening", study, want, EXACTLY)


def main_screen(model: Loaded, families: ProblemSets, sizes: HeadsSizes, at: Site,
                found: MainScreen) -> Comparison:
    """§3: the next block's screen in H (the transplant at the site's block) and O, on `sampled`
    heads and each context's first; each context's top head and O's survivors where every head
    was compared."""
    fams, heads, block = families.main[:sizes.main_families], heads_of(model, sizes), at.blocks[1]
    s = found.screen
    rows = picked(heads, [s.ranking(c)[0] for c in "HO" if s.summary.get(c)])
    redone = reference.screen(model, rerun(fams), at.block, block, rows, opening=False)
    study: Rows = {}
    want: Rows = {}
    every = {c: screen_rows(s, c, block, rows, fams, redone[c], study, want) for c in "HO"}
    if rows == heads:
        tops = [reference_summaries.ranked({h: want[f"{c} {block}.{h}"]["loss_pL"][0] for h in heads})[1]
                for c in "HO"]
        survived = sum(bool(v and v[3]) for h in heads for v in every["O"][h])
        want["choice"] = [*tops, survived, len(fams) * len(heads)]
        study["choice"] = [s.top("H"), s.top("O"), found.ordinary_survivors, found.deletions]
    return compare("heads_main_screen", study, want, EXACTLY)


def native_answers(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab,
                   found: Mapping[str, int]) -> Comparison:
    """§3–§6: whether each main family's unedited O answers L, every family re-run (one prefill
    each), and the count."""
    fams = families.main[:sizes.main_families]
    study: Rows = {f"f{i}": lab.observation(f, "native.O").predicts("L")
                   for i, f in enumerate(fams) if lab.has_case(f, "native.O")}
    want: Rows = {f"f{i}": reference.prefill(model, f.O)[0].wins(f.O.answer)
                  for i, f in enumerate(fams)}
    study["count"] = [found["native_L"], found["n"]]
    want["count"] = [sum(want[f"f{i}"] for i in range(len(fams))), len(fams)]
    return compare("heads_native_answers", study, want, EXACTLY)


def conditions(swept: Sequence[int], heads: Sequence[int], at: Site) -> dict[str, list[str]]:
    """§2–§6's conditions per family, as the seed names them: the opening study's (natives, one
    transplant per swept block, H and the two screens) and the main study's (natives, H, the
    three screens, both sites' three pairings, the joint crossing and the grid's three new cells)."""
    b1, b2 = at.blocks
    opening = (["native.R", "native.D", "hybrid.H", "native.O"]
               + [f"residual.layer{b:02d}" for b in swept]
               + [f"{p}.head{h}.zero" for p in ("conditional", "query_matched") for h in heads])
    main = (["native.O", "native.D", "screen.H", "followup.both.OD", f"zero.{b1}",
             f"zero.{b1}.{b2}", f"followup.reverse{b2}.zero{b1}"]
            + [f"AV.{b}.{p}" for b in (b1, b2) for p in ("OO", "OD", "OD.label")]
            + [f"screen.{c}.head{h}.zero" for c in "HOX" for h in heads])
    return {"opening": sorted(opening), "main": sorted(main)}


def record_counts(model: Loaded, families: ProblemSets, sizes: HeadsSizes, lab: HeadsLab,
                  at: Site, found: RecordCounts) -> Comparison:
    """§7: each `sampled` family's recorded conditions against the seed's list, and the counts
    recorded and expected against the list's length times the families."""
    seed = conditions(blocks_of(model, sizes), heads_of(model, sizes), at)
    study: Rows = {}
    want: Rows = {}
    for name, fams in (("opening", families.opening[:sizes.opening_families]),
                       ("main", families.main[:sizes.main_families])):
        for i, f in enumerate(fams):
            if i in sampled(len(fams)):
                want[f"{name} f{i}"] = seed[name]
                study[f"{name} f{i}"] = sorted(c for s, fid, c in lab.observations
                                               if s == name and fid == f.family_id)
        want[name] = [len(seed[name]) * len(fams)] * 2
    study["opening"] = [found.opening, found.expected_opening]
    study["main"] = [found.main, found.expected_main]
    return compare("heads_record_counts", study, want, EXACTLY)

