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


FIGURES: dict[str, Callable[[Entry], str]] = {
    "cot.early-answering": early_answering,
    "cot.product-layer-screen": product_layer_screen,
    "patching.layer-flip": patching_map,
    "patching.ioi-pair": ioi_map,
}


def figure_for(entry: Entry) -> str | None:
    """The entry's SVG figure, or None when it has none or nothing was measured."""
    draw = FIGURES.get(entry["id"])
    if draw is None or not entry.get("measured"):
        return None
    return draw(entry)
