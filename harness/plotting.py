"""Drawing helpers for the sources' figures modules: the published curve and the measured one on
the same axes, as inline SVG (harness.reporting.figures finds each claim's figure)."""
from __future__ import annotations

import io
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from harness.criteria import clopper_pearson  # noqa: E402

PUBLISHED_STYLE = dict(color="#555555", marker="o", linestyle="--", label="published")
MEASURED_STYLE = dict(color="#1f6feb", marker="s", label="measured")


def svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.S)


def binomial_bars(rates: list[float], n: int) -> tuple[list[float], list[float]]:
    lo, hi = [], []
    for r in rates:
        a, b = clopper_pearson(round(r * n), n)
        lo.append(r - a)
        hi.append(b - r)
    return lo, hi


def curve(ax, x, published, measured_x, measured, n: int | None) -> None:
    if published is not None:
        if n:
            ax.errorbar(x, published, yerr=binomial_bars(published, n), capsize=3,
                        **PUBLISHED_STYLE)
        else:
            ax.plot(x, published, **PUBLISHED_STYLE)
    if measured is not None:
        ax.plot(measured_x, measured, **MEASURED_STYLE)
    ax.set_ylim(-0.05, 1.05)
    ax.legend(loc="best", fontsize=8)


def relative_depth(layers: list[int], n_layers: int) -> list[float]:
    return [layer / n_layers for layer in layers]


def heatmap(matrix: list[list[float | None]], tokens: list[str], title: str) -> str:
    import numpy as np

    data = np.array([[float("nan") if v is None else v for v in row] for row in matrix])
    fig, ax = plt.subplots(figsize=(1 + 0.7 * len(tokens), 0.5 + 0.35 * len(matrix)))
    im = ax.imshow(data, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(len(tokens)), [t.replace("Ġ", " ") for t in tokens], rotation=45, ha="right")
    ax.set(ylabel="layer", title=title)
    fig.colorbar(im, ax=ax, label="normalised logit diff (0 corrupted, 1 clean)")
    return svg(fig)
