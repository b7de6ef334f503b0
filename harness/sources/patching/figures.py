"""Seed 004's report figures, keyed by the claim they draw."""
from __future__ import annotations

from typing import Callable

from harness.plotting import EntryJSON, heatmap


def patching_map(e: EntryJSON) -> str:
    m = e["measured"]
    return heatmap(m["sweep_normalised"], m["sweep_tokens"],
                    "Seed pair: patch one (layer, position) from clean into corrupted")


def ioi_map(e: EntryJSON) -> str:
    m = e["measured"]
    return heatmap(m["normalised"], m["tokens"], "Corrected IOI pair: layer × position")


FIGURES: dict[str, Callable[[EntryJSON], str]] = {
    "patching.layer-flip": patching_map,
    "patching.ioi-pair": ioi_map,
}
FIGURES_OF_RUN: dict[str, Callable[[EntryJSON, dict[str, EntryJSON]], str]] = {
}
