"""Seed 001's report figures, keyed by the claim they draw."""
from __future__ import annotations

from harness.plotting import PUBLISHED_STYLE, plt, relative_depth, svg
from harness.source import EntryJSON, Figures


def residual_transplant(e: EntryJSON) -> str:
    """Seed 001 §2: p(U), p(L), p(D) after the donor-residual transplant, by relative depth."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    p, m = e["published"], e["measured"]
    colours = {"U": "#8b9299", "L": "#3478a8", "D": "#d47935"}
    for role, curve in m["curves"].items():
        depth = relative_depth(list(range(len(curve))), len(curve))
        ax.plot(depth, [c["mean"] for c in curve], marker="s", color=colours[role],
                label=f"measured p({role})")
        ax.fill_between(depth, [c["ci"][0] for c in curve], [c["ci"][1] for c in curve],
                        color=colours[role], alpha=0.15)
        if m.get("retrieval_block") is not None and role == "L":
            ax.axvline(m["retrieval_block"] / len(curve), color="black", linestyle=":",
                       label=f"selected block {m['retrieval_block']}")
    ax.plot([p["retrieval_block"] / 36], [p["p_L_at_block"]], **dict(PUBLISHED_STYLE,
            label=f"published p(L) at block {p['retrieval_block']} of 36"))
    ax.set(xlabel="block receiving the donor residual / number of blocks",
           ylabel="full-vocabulary probability", ylim=(-0.03, 1.03),
           title="Residual transplant (95% family-bootstrap bands)")
    ax.legend(fontsize=7)
    return svg(fig)


def _screen_axis(ax, screens: dict[str, list[dict]], published: dict[int, tuple[float, float, float]],
                 block: str) -> None:
    colours = {"H": "#669d66", "O": "#d47935", "X": "#3478a8"}
    for k, (context, rows) in enumerate(screens.items()):
        x = [h + (k - (len(screens) - 1) / 2) * 0.22 for h in range(len(rows))]
        means = [r["mean"] for r in rows]
        ax.errorbar(x, means, yerr=[[r["mean"] - r["ci"][0] for r in rows],
                                    [r["ci"][1] - r["mean"] for r in rows]],
                    fmt="s", capsize=2, markersize=4, color=colours[context],
                    label=f"measured {context}")
    if published:
        heads = sorted(published)
        ax.errorbar([h + 0.33 for h in heads], [published[h][0] for h in heads],
                    yerr=[[published[h][0] - published[h][1] for h in heads],
                          [published[h][2] - published[h][0] for h in heads]],
                    fmt="o", capsize=2, markersize=4, color="#555555", label="published")
    ax.axhline(0, color="#8b9299", linewidth=0.6)
    ax.set(xlabel=f"deleted final-position head at block {block}", ylabel="loss of p(L)")
    ax.legend(fontsize=7)


def opening_screen(e: EntryJSON) -> str:
    """Seed 001 §2: zeroing each head at the selected block, in H and O."""
    fig, ax = plt.subplots(figsize=(7, 3))
    p, m = e["published"], e["measured"]
    block = str(m["block"])
    published = {int(m["site"].split(".")[1]): (p["H_loss"], *p["H_loss_ci"])} if m["site"] else {}
    _screen_axis(ax, m["screen"], published, block)
    ax.set_title(f"Opening screen: published 31.7 in H drawn at the measured top head {m['site']}",
                 fontsize=9)
    return svg(fig)


def challenged_screen(e: EntryJSON, run: dict[str, EntryJSON]) -> str:
    """Seed 001 §3 and §5: the next block's deletions in H, O and under the crossing (X)."""
    fig, ax = plt.subplots(figsize=(8, 3.2))
    p, m = e["published"], e["measured"]
    block = m["ranking"][0]["site"].split(".")[0]
    screens = dict(((run.get("heads.block32-screen") or {}).get("measured") or {}).get("screen", {}))
    by_head = {int(r["site"].split(".")[1]): r for r in m["ranking"]}
    screens["X"] = [by_head[h] for h in sorted(by_head)]
    published = {int(r["site"].split(".")[1]): (r["mean"], *r["ci"]) for r in p["ranking"]}
    if len(published) != len(by_head):
        published = {}  # a different head count: the published screen has no matching x axis
    _screen_axis(ax, screens, published, block)
    ax.set_title("Head screens one block later (95% family-bootstrap intervals)", fontsize=9)
    return svg(fig)


def head_grid(e: EntryJSON) -> str:
    """Seed 001 §6: mean p(C) for recompute / zero / cross at the two selected heads."""
    import numpy as np

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    p, m = e["published"], e["measured"]
    treatments = ("normal", "zero", "cross")
    measured = np.array([[m["p_C"][f"{a}_{b}"]["mean"] for b in treatments] for a in treatments])
    published = np.full((3, 3), np.nan)
    for b, key in enumerate(("cross_normal_p_C", "cross_zero_p_C", "cross_cross_p_C")):
        published[2, b] = p[key]
    for ax, matrix, title in ((axes[0], published, "published (printed cells)"),
                              (axes[1], measured, "measured")):
        ax.imshow(matrix, vmin=0, vmax=1, cmap="Blues")
        for i in range(3):
            for j in range(3):
                if not np.isnan(matrix[i, j]):
                    ax.text(j, i, f"{matrix[i, j]:.3f}", ha="center", va="center",
                            color="white" if matrix[i, j] > 0.5 else "black")
        ax.set_xticks(range(3), ["recompute", "zero", "cross"])
        ax.set_yticks(range(3), ["recompute", "zero", "cross"])
        ax.set(xlabel="second head's treatment", title=f"mean p(C), {title}")
    axes[0].set_ylabel("first head's treatment")
    fig.tight_layout()
    return svg(fig)


FIGURES = Figures(
    of_entry={
        "heads.residual-transplant": residual_transplant,
        "heads.opening-screen": opening_screen,
        "heads.grid": head_grid,
    },
    of_run={
        "heads.challenged-screen": challenged_screen,
    },
)
