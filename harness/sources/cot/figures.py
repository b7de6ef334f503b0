"""Seed 000's report figures, keyed by the claim they draw."""
from __future__ import annotations

from harness.plotting import curve, plt, relative_depth, svg
from harness.source import EntryJSON, Figures


def early_answering(e: EntryJSON) -> str:
    fig, ax = plt.subplots(figsize=(5, 3))
    p, m = e["published"], e["measured"] or {}
    curve(ax, p["fractions"], p["correct_rate"], m.get("fractions"), m.get("correct_rate"), p["n"])
    ax.set(xlabel="fraction of the thinking block kept", ylabel="forced answer correct",
           title="Early answering (95% binomial intervals)")
    return svg(fig)


def product_layer_screen(e: EntryJSON) -> str:
    """Drawn against relative depth, so an organism's screen sits beside the 36-layer one."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3))
    p, m = e["published"], e["measured"]
    for ax, key, title in ((axes[0], "donor_rate", "writes the donor's product"),
                           (axes[1], "changed_rate", "writes a different number")):
        curve(ax, relative_depth(p["layers"], p["n_layers"]), p[key],
               relative_depth(m["layers"], m["n_layers"]), m[key], p["n"])
        ax.set(xlabel="layer / number of layers", ylabel="fraction of pairs", title=title)
    return svg(fig)


FIGURES = Figures(
    of_entry={
        "cot.early-answering": early_answering,
        "cot.product-layer-screen": product_layer_screen,
    },
)
