"""Seed 001 §1–§7: each claim's measured values, read from its study or anchor in snapshot order
and typed by what the claim judges (harness/readout_types.py)."""
from __future__ import annotations

from typing import Any

from harness.sources.heads.bootstrap import BootstrapMean
from harness.sources.heads.challenged_screen import ChallengedScreen as ChallengedScreenStudy
from harness.sources.heads.content_effects import ContentEffects as ContentEffectsStudy
from harness.sources.heads.crossings import FirstCrossing
from harness.sources.heads.grid import BOTH, TREATMENTS, JointCrossing
from harness.sources.heads.grid import Grid as GridStudy
from harness.sources.heads.screens import MainScreen
from harness.sources.heads.screens import OpeningScreen as OpeningScreenStudy
from harness.sources.heads.sweep import ResidualSweep, Site

GRID_KEYS = {f"{a}_{b}": (a, b) for a in TREATMENTS for b in TREATMENTS}


def interval(summary: BootstrapMean) -> dict[str, Any]:
    """A bootstrap summary as a mean and its [lower, upper] interval."""
    return {"mean": summary.mean, "ci": list(summary.ci95)}


def chosen(site: Site) -> dict[str, Any]:
    """§2: the block the later studies ran at, and whether the rule or the fallback chose it."""
    return {"block": site.block, "block_chosen_by": site.chosen_by}


def residual_transplant(sweep: ResidualSweep) -> dict[str, Any]:
    """§2: the selected block, p(L) there with its interval, and every block's curves."""
    s, block = sweep.stats, sweep.retrieval_block
    chosen = s[block]["L"] if block is not None else None
    return {"retrieval_block": block,
            "p_L_at_block": chosen.mean if chosen else None,
            "p_L_ci": list(chosen.ci95) if chosen else None,
            "curves": {role: [interval(s[b][role]) for b in sorted(s)] for role in ("U", "L", "D")}}


def at(block: int, head: int | None) -> str | None:
    """A head's site as "block.head"; None where a screen's tie picked no head."""
    return None if head is None else f"{block}.{head}"


def opening_screen(o: OpeningScreenStudy, site: Site) -> dict[str, Any]:
    """§2: the retrieval head (none on a tie), its H and O losses, H's correct answers, and both
    screens; the losses are the ranking's first head's."""
    head, summary = o.screen.ranking("H")[0], o.screen.summary
    return {**chosen(site), "site": at(site.block, o.retrieval_head),
            "H_loss": summary["H"][head]["loss_pL"].mean,
            "H_loss_measured_ci": list(summary["H"][head]["loss_pL"].ci95),
            "O_loss": summary["O"][head]["loss_pL"].mean,
            "O_loss_measured_ci": list(summary["O"][head]["loss_pL"].ci95),
            "H_correct_before": o.hybrid_correct_before, "H_correct_after": o.hybrid_correct_after,
            "n": len(o.screen.values("H", head)),
            "screen": {c: [interval(summary[c][h]["loss_pL"]) for h in sorted(summary[c])]
                       for c in ("H", "O")}}


def next_block_screen(m: MainScreen, site: Site, g: GridStudy) -> dict[str, Any]:
    """§3: each context's top head (none on a tie) and the largest loss, the survival count, the
    positive control (both §5–§6 sites zeroed, §6's zero-zero cell), and both screens."""
    s = m.screen.summary
    first = {c: m.screen.ranking(c)[0] for c in ("H", "O")}
    return {**chosen(site), "H_top": at(m.screen.block, m.screen.top("H")),
            "H_top_loss": s["H"][first["H"]]["loss_pL"].mean,
            "O_top": at(m.screen.block, m.screen.top("O")),
            "O_top_loss": s["O"][first["O"]]["loss_pL"].mean,
            "ordinary_survivors": m.ordinary_survivors, "deletions": m.deletions,
            "control_site": g.first_site, "control_broken": g.n - g.zero_zero_survivors,
            "control_deletions": g.n,
            "screen": {c: [interval(s[c][h]["loss_pL"]) for h in sorted(s[c])] for c in ("H", "O")}}


def example_crossing(first: FirstCrossing, site: Site) -> dict[str, Any]:
    """§4: main family 0's p(L), p(C), C−L margin and top answer, native and crossed."""
    native, crossed = first.example
    return {**chosen(site), "native_p_L": native.p_L, "native_p_C": native.p_C,
            "native_margin": native.margin_C_minus_L, "native_top": native.top,
            "crossed_p_L": crossed.p_L, "crossed_p_C": crossed.p_C,
            "crossed_margin": crossed.margin_C_minus_L, "crossed_top": crossed.top}


def crossing(first: FirstCrossing, site: Site) -> dict[str, Any]:
    """§4: the native and crossed cohort rows at the retrieval head."""
    native, crossed = first.rows
    return {**chosen(site), "site": f"{first.block}.{first.head}",
            "native_mean_p_L": native.mean_p_L, "native_mean_p_C": native.mean_p_C,
            "native_L": native.L_predictions, "crossed_mean_p_L": crossed.mean_p_L,
            "crossed_mean_p_C": crossed.mean_p_C, "crossed_L": crossed.L_predictions, "n": native.n}


def challenged_screen(c: ChallengedScreenStudy, site: Site) -> dict[str, Any]:
    """§5: the support head, its loss, unique wins, the runner-up gap and the ranking."""
    block = c.screen.block
    top = c.ranking[0][1]
    return {**chosen(site), "support_site": at(block, c.support_head), "top_loss": top.mean,
            "unique_wins": c.unique_wins, "n": top.n_families,
            "runner_up_site": f"{block}.{c.runner_up}", "gap": c.gap.mean,
            "ranking": [{"site": f"{block}.{h}", **interval(s)} for h, s in c.ranking]}


def content_effects(content: ContentEffectsStudy, site: Site) -> dict[str, Any]:
    """§5: both sites' C−L margin shifts, crossed and label-only, and every paired effect."""
    (b1, h1), (b2, h2) = content.sites.items()
    e = content.effects
    return {**chosen(site), "sites": [f"{b1}.{h1}", f"{b2}.{h2}"],
            "first_margin": e[b1]["margin"].mean, "first_label_margin": e[b1]["label_margin"].mean,
            "second_margin": e[b2]["margin"].mean, "second_label_margin": e[b2]["label_margin"].mean,
            "effects": {f"{b}": {k: interval(v) for k, v in e[b].items()} for b in e}}


def joint_flip(j: JointCrossing, site: Site) -> dict[str, Any]:
    """§6: mean p(C) with both crossings, C wins, and main family 0's example."""
    both = j.summaries[BOTH]
    native, first, second, joint = j.example
    return {**chosen(site), "mean_p_C": both.mean, "mean_p_C_ci": list(both.ci95),
            "c_wins": j.c_wins, "n": j.n,
            "example_top": joint.top, "example_p_L": joint.p_L, "example_p_C": joint.p_C,
            "second_alone_p_L": second.p_L,
            "bars": {c: interval(s) for c, s in j.summaries.items()}}


def grid(g: GridStudy, site: Site) -> dict[str, Any]:
    """§6: zero-zero survivors, the crossed cells' p(C), the cross-minus-zero effects and all
    nine cells' p(C) and margin (GRID_KEYS' names)."""
    cells = {k: g.p_C[pair] for k, pair in GRID_KEYS.items()}
    normal, zero, cross = cells["cross_normal"], cells["cross_zero"], cells["cross_cross"]
    return {**chosen(site), "zero_zero_survivors": g.zero_zero_survivors, "n": g.n,
            "cross_normal_p_C": normal.mean, "cross_zero_p_C": zero.mean,
            "cross_cross_p_C": cross.mean, "cross_normal_p_C_ci": list(normal.ci95),
            "cross_zero_p_C_ci": list(zero.ci95), "cross_cross_p_C_ci": list(cross.ci95),
            "both_minus_zero": g.both_minus_zero.mean,
            "both_minus_zero_margin": g.both_minus_zero_margin.mean,
            "p_C": {k: interval(v) for k, v in cells.items()},
            "margin": {k: interval(g.margin[pair]) for k, pair in GRID_KEYS.items()}}


def native_answers(answers: dict[str, int]) -> dict[str, Any]:
    """§3–§6: the main families' native O answers that are L, of how many."""
    return {"native_L": answers["native_L"], "n": answers["n"]}
