"""The lookup from a claim to its figure, which its source declares (`Source.figures`; their
helpers: harness.plotting)."""
from __future__ import annotations

from harness.source import EntryJSON


def figure_for(entry: EntryJSON, run: dict[str, EntryJSON]) -> str | None:
    """The entry's SVG figure, drawn by its source's figures (some draw sibling claims of the
    same run), or None."""
    if not entry.get("measured"):
        return None
    from harness.registry import registered

    src = registered().get(entry["id"].split(".", 1)[0])
    return src.figures.draw(entry, run) if src is not None else None
