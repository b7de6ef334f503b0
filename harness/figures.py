"""Report figures: the published curve and the measured one on the same axes, as inline SVG."""
from __future__ import annotations

import io
import re
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from harness.criteria import clopper_pearson  # noqa: E402

Entry = dict[str, Any]
PUBLISHED_STYLE = dict(color="#555555", marker="o", linestyle="--", label="published")
MEASURED_STYLE = dict(color="#1f6feb", marker="s", label="measured")


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)


def _binomial_bars(rates: list[float], n: int) -> tuple[list[float], list[float]]:
    lo, hi = [], []
    for r in rates:
        a, b = clopper_pearson(round(r * n), n)
        lo.append(r - a)
        hi.append(b - r)
    return lo, hi


def _curve(ax, x, published, measured_x, measured, n: int | None) -> None:
    if published is not None:
        if n:
            ax.errorbar(x, published, yerr=_binomial_bars(published, n), capsize=3,
                        **PUBLISHED_STYLE)
        else:
            ax.plot(x, published, **PUBLISHED_STYLE)
    if measured is not None:
        ax.plot(measured_x, measured, **MEASURED_STYLE)
    ax.set_ylim(-0.05, 1.05)
    ax.legend(loc="best", fontsize=8)


def early_answering(e: Entry) -> str:
    fig, ax = plt.subplots(figsize=(5, 3))
    p, m = e["published"], e["measured"] or {}
    _curve(ax, p["fractions"], p["correct_rate"], m.get("fractions"), m.get("correct_rate"), p["n"])
    ax.set(xlabel="fraction of the thinking block kept", ylabel="forced answer correct",
           title="Early answering (95% binomial intervals)")
    return _svg(fig)


def _depth(layers: list[int], n_layers: int) -> list[float]:
    return [layer / n_layers for layer in layers]


def product_layer_screen(e: Entry) -> str:
    """Drawn against relative depth, so an organism's screen sits beside the 36-layer one."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3))
    p, m = e["published"], e["measured"]
    for ax, key, title in ((axes[0], "donor_rate", "writes the donor's product"),
                           (axes[1], "changed_rate", "writes a different number")):
        _curve(ax, _depth(p["layers"], p["n_layers"]), p[key],
               _depth(m["layers"], m["n_layers"]), m[key], p["n"])
        ax.set(xlabel="layer / number of layers", ylabel="fraction of pairs", title=title)
    return _svg(fig)


def _heatmap(matrix: list[list[float | None]], tokens: list[str], title: str) -> str:
    import numpy as np

    data = np.array([[float("nan") if v is None else v for v in row] for row in matrix])
    fig, ax = plt.subplots(figsize=(1 + 0.7 * len(tokens), 0.5 + 0.35 * len(matrix)))
    im = ax.imshow(data, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(len(tokens)), [t.replace("Ġ", " ") for t in tokens], rotation=45, ha="right")
    ax.set(ylabel="layer", title=title)
    fig.colorbar(im, ax=ax, label="normalised logit diff (0 corrupted, 1 clean)")
    return _svg(fig)


def patching_map(e: Entry) -> str:
    m = e["measured"]
    return _heatmap(m["sweep_normalised"], m["sweep_tokens"],
                    "Seed pair: patch one (layer, position) from clean into corrupted")


def ioi_map(e: Entry) -> str:
    m = e["measured"]
    return _heatmap(m["normalised"], m["tokens"], "Corrected IOI pair: layer × position")


def binding_sweep(e: Entry, run: dict[str, Entry]) -> str:
    """The three §4 sweeps on one axis, with the published reversed curve and its intervals."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    published = run.get("lookback.reversed-curve", {}).get("published")
    if published:
        n = published["n"]
        ax.errorbar(range(len(published["iia"])), published["iia"],
                    yerr=_binomial_bars(published["iia"], n), capsize=2,
                    **dict(PUBLISHED_STYLE, label="published reversed"))
    for claim_id, label, color in (("lookback.binding-iia", "reversed", "#1f6feb"),
                                   ("lookback.same-position", "same position", "#d9822b"),
                                   ("lookback.opaque-control", "opaque control", "#888888")):
        measured = run.get(claim_id, {}).get("measured")
        if measured:
            ax.plot(range(len(measured["iia"])), measured["iia"], marker="s", color=color,
                    label=f"measured {label}")
    ax.set(xlabel="layer patched", ylabel="IIA", ylim=(-0.05, 1.05),
           title="Binding lookback: drink-token interchange")
    ax.legend(fontsize=7)
    return _svg(fig)


def source_sweep(e: Entry, run: dict[str, Entry]) -> str:
    """§5: IIA after the 0..L source swap, with and without the drink freeze."""
    fig, ax = plt.subplots(figsize=(6, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(p["last_layers"], p["iia"], yerr=_binomial_bars(p["iia"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published, drinks frozen"))
    ax.plot(m["last_layers"], m["iia"], **dict(MEASURED_STYLE, label="measured, drinks frozen"))
    plain = run.get("lookback.source-no-freeze", {}).get("measured")
    if plain:
        ax.plot(plain["last_layers"], plain["iia"], marker="^", color="#d9822b",
                label="measured, no freeze")
    ax.set(xlabel="swap at layers 0..L", ylabel="IIA", ylim=(-0.05, 1.05),
           title="Where the Ordering ID comes from")
    ax.legend(fontsize=7)
    return _svg(fig)


def pointer_payload(e: Entry, run: dict[str, Entry]) -> str:
    """§6: the final-token pointer against the payload, per layer."""
    fig, ax = plt.subplots(figsize=(7, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(range(len(p["pointer_l0_l24"])), p["pointer_l0_l24"],
                yerr=_binomial_bars(p["pointer_l0_l24"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published pointer"))
    ax.plot(range(len(m["pointer"])), m["pointer"], **dict(MEASURED_STYLE, label="measured pointer"))
    payload = run.get("lookback.answer-payload", {})
    if payload.get("published"):
        ax.plot(range(len(payload["published"]["payload"])), payload["published"]["payload"],
                linestyle=":", marker="o", color="#999999", label="published payload")
    if payload.get("measured"):
        ax.plot(range(len(payload["measured"]["payload"])), payload["measured"]["payload"],
                marker="^", color="#d9822b", label="measured payload")
    ax.set(xlabel="layer", ylabel="fraction of samples", ylim=(-0.05, 1.05),
           title="Answer lookback: pointer, then payload")
    ax.legend(fontsize=7)
    return _svg(fig)


def low_rank_curve(e: Entry) -> str:
    """§7: IIA of the swap restricted to rank-k subspaces, fitted against random."""
    fig, ax = plt.subplots(figsize=(6, 3))
    p, m = e["published"], e["measured"]
    ax.errorbar(p["ranks"], p["fitted"], yerr=_binomial_bars(p["fitted"], p["n"]), capsize=2,
                **dict(PUBLISHED_STYLE, label="published fitted"))
    ax.plot(p["ranks"], p["random"], linestyle=":", color="#999999", marker="o",
            label="published random")
    ax.plot(m["ranks"], m["fitted"], **dict(MEASURED_STYLE, label="measured fitted"))
    ax.plot(m["ranks"], m["random"], marker="^", color="#d9822b", label="measured random")
    ax.set_xscale("log", base=2)
    ax.set(xlabel="rank k", ylabel="IIA (held-out half)", ylim=(-0.05, 1.05),
           title="IIA by rank of the swapped subspace")
    ax.legend(fontsize=7)
    return _svg(fig)


def residual_transplant(e: Entry) -> str:
    """Seed 001 §2: p(U), p(L), p(D) after the donor-residual transplant, by relative depth."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    p, m = e["published"], e["measured"]
    colours = {"U": "#8b9299", "L": "#3478a8", "D": "#d47935"}
    for role, curve in m["curves"].items():
        depth = _depth(list(range(len(curve))), len(curve))
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
    return _svg(fig)


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


def opening_screen(e: Entry) -> str:
    """Seed 001 §2: zeroing each head at the selected block, in H and O."""
    fig, ax = plt.subplots(figsize=(7, 3))
    p, m = e["published"], e["measured"]
    block, head = m["site"].split(".")
    published = {int(head): (p["H_loss"], *p["H_loss_ci"])}
    _screen_axis(ax, m["screen"], published, block)
    ax.set_title(f"Opening screen: published 31.7 in H drawn at the measured top head {m['site']}",
                 fontsize=9)
    return _svg(fig)


def challenged_screen(e: Entry, run: dict[str, Entry]) -> str:
    """Seed 001 §3 and §5: the next block's deletions in H, O and under the crossing (X)."""
    fig, ax = plt.subplots(figsize=(8, 3.2))
    p, m = e["published"], e["measured"]
    block = m["support_site"].split(".")[0]
    screens = dict(run.get("heads.block32-screen", {}).get("measured", {}).get("screen", {}))
    by_head = {int(r["site"].split(".")[1]): r for r in m["ranking"]}
    screens["X"] = [by_head[h] for h in sorted(by_head)]
    published = {int(r["site"].split(".")[1]): (r["mean"], *r["ci"]) for r in p["ranking"]}
    if len(published) != len(by_head):
        published = {}  # a different head count: the published screen has no matching x axis
    _screen_axis(ax, screens, published, block)
    ax.set_title("Head screens one block later (95% family-bootstrap intervals)", fontsize=9)
    return _svg(fig)


def head_grid(e: Entry) -> str:
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
    return _svg(fig)


FIGURES: dict[str, Callable[[Entry], str]] = {
    "lookback.low-rank": low_rank_curve,
    "cot.early-answering": early_answering,
    "cot.product-layer-screen": product_layer_screen,
    "patching.layer-flip": patching_map,
    "patching.ioi-pair": ioi_map,
    "heads.residual-transplant": residual_transplant,
    "heads.opening-screen": opening_screen,
    "heads.grid": head_grid,
}
FIGURES_OF_RUN: dict[str, Callable[[Entry, dict[str, Entry]], str]] = {
    "lookback.binding-iia": binding_sweep,
    "lookback.source-oi": source_sweep,
    "lookback.answer-pointer": pointer_payload,
    "heads.challenged-screen": challenged_screen,
}


def figure_for(entry: Entry, run: dict[str, Entry]) -> str | None:
    """The entry's SVG figure (some draw sibling claims of the same run), or None."""
    if not entry.get("measured"):
        return None
    if entry["id"] in FIGURES_OF_RUN:
        return FIGURES_OF_RUN[entry["id"]](entry, run)
    draw = FIGURES.get(entry["id"])
    return draw(entry) if draw else None
