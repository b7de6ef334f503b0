"""The lookup from a claim to its figure, drawn by its source's figures module (their helpers:
harness.plotting)."""
from __future__ import annotations

from harness.plotting import EntryJSON
from harness.source import SourcePart


def figure_for(entry: EntryJSON, run: dict[str, EntryJSON]) -> str | None:
    """The entry's SVG figure, drawn by its source's figures module (some draw sibling claims of
    the same run), or None."""
    if not entry.get("measured"):
        return None
    from harness.registry import registered

    src = registered().get(entry["id"].split(".", 1)[0])
    module = src.part(SourcePart.FIGURES) if src is not None else None
    if module is None:
        return None
    if entry["id"] in getattr(module, "FIGURES_OF_RUN", {}):
        return module.FIGURES_OF_RUN[entry["id"]](entry, run)
    draw = getattr(module, "FIGURES", {}).get(entry["id"])
    return draw(entry) if draw else None
