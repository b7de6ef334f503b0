"""Seed 004's report figures, keyed by the claim they draw."""
from __future__ import annotations

from harness.plotting import heatmap
from harness.source import EntryJSON, Figures


def patching_map(e: EntryJSON) -> str:
    m = e["measured"]
    return heatmap(m["sweep_normalised"], m["sweep_tokens"],
                    "Seed pair: patch one (layer, position) from clean into corrupted")


def ioi_map(e: EntryJSON) -> str:
    m = e["measured"]
    return heatmap(m["normalised"], m["tokens"], "Corrected IOI pair: layer × position")


FIGURES = Figures(
    of_entry={
        "patching.layer-flip": patching_map,
        "patching.ioi-pair": ioi_map,
    },
)
