"""The seed notebooks beside the page: each registered source's notebook written as
seeds/<file>.html next to claims.html, one anchor per line, so that a claim's seed link resolves
in an uploaded reports/ folder and opens at the line its provenance names (`<file>:<line>`), else
at its section's heading."""
from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Mapping

from harness.source import REPO_ROOT

SEEDS = REPO_ROOT.parent / "shared" / "seeds"  # the notebooks' text, beside the repository
# A section's heading in the notebooks' text: "6. Intervening inside the decode loop¶".
HEADING = re.compile(r"^(\d+)\. .*¶\s*$")
# Where a provenance names a line of a notebook: "activation_patching.ipynb:191 (In[8]'s output)".
CITED_LINE = re.compile(r"(?P<file>[\w.\-]+):(?P<line>\d+)")


def section_lines(text: str) -> dict[str, int]:
    """Each numbered section's heading line (from 1), by its number."""
    found: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = HEADING.match(line)
        if m:
            found.setdefault(m.group(1), n)
    return found


def page(name: str, text: str) -> str:
    """The notebook as a page: each line numbered, with the anchor L<n>."""
    lines = "\n".join(f'<span id="L{n}"><a href="#L{n}">{n:5}</a>  {html.escape(line)}</span>'
                      for n, line in enumerate(text.splitlines(), 1))
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(name)}</title>"
            f"<style>pre{{font-size:.8rem}}a{{color:#888;text-decoration:none}}"
            f":target{{background:#fff3b0}}</style><pre>{lines}</pre>")


def write_pages(out_dir: Path, files: Mapping[str, Path], seeds: Path = SEEDS
                ) -> dict[str, dict[str, int]]:
    """Write seeds/<file>.html under `out_dir` for each notebook found, in the folder given for it
    (its source's) or among the seeds; its section lines."""
    lines: dict[str, dict[str, int]] = {}
    for name, folder in sorted(files.items()):
        source = next((p for p in (folder / name, seeds / name) if p.is_file()), None)
        if source is None:
            continue
        text = source.read_text(errors="replace")
        (out_dir / "seeds").mkdir(parents=True, exist_ok=True)
        (out_dir / "seeds" / f"{name}.html").write_text(page(name, text))
        lines[name] = section_lines(text)
    return lines


def cited_line(name: str, provenance: str) -> int | None:
    """The line of notebook `name` that a claim's provenance cites, if it cites one."""
    return next((int(m["line"]) for m in CITED_LINE.finditer(provenance) if m["file"] == name),
                None)


def href(name: str, section: str, lines: dict[str, dict[str, int]],
         provenance: str = "") -> str | None:
    """The link into a claim's notebook page: the line its provenance cites, else its section's
    heading (the first line where the section has none); None where the notebook was not found."""
    if name not in lines:
        return None
    line = cited_line(name, provenance) or lines[name].get(section.split(".")[0], 1)
    return f"seeds/{name}.html#L{line}"
