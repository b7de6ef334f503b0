"""The claim-status page read back as a person reads it, by html.parser: each claim row's badges
and cells, the counts table, the text of every element with an id."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from harness.reporting.report import write_report

VOID = {"br", "meta", "hr", "img", "input", "link"}
VERDICT, DRIFT, REQUIRES, RUNS = 2, 3, 4, 5  # a claim row's columns


@dataclass
class Badge:
    """A badge or history cell: its classes, its text and its title."""

    classes: list[str]
    text: str = ""
    title: str = ""


@dataclass
class Row:
    """One claim row: its data attributes, each column's text and badges, its history cells,
    its links and its values' JSON (published, measured)."""

    data: dict[str, str]
    text: list[str] = field(default_factory=list)
    badges: list[list[Badge]] = field(default_factory=list)
    cells: list[Badge] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)

    def badge(self, column: int) -> Badge:
        """The column's one badge."""
        (only,) = self.badges[column]
        return only


class Page(HTMLParser):
    """Rows in document order, the counts table's rows, the text of each element by its id, the
    source sections in order, the style sheet and the HTML itself."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, Row] = {}
        self.counts: list[list[str]] = []
        self.by_id: dict[str, str] = {}
        self.headings: list[str] = []
        self.style = ""
        self.html = ""
        self.open: list[tuple[str, str | None]] = []
        self.row: Row | None = None
        self.badge: Badge | None = None
        self.in_counts = False
        self.in_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag not in VOID:
            self.open.append((tag, a.get("id")))
        if a.get("id"):
            self.by_id[a["id"]] = ""
        if tag == "h2" and a.get("id", "").startswith("source-"):
            self.headings.append(a["id"])
        self.in_counts = self.in_counts or "counts" in classes
        if self.in_counts and tag == "tr":
            self.counts.append([])
        if tag == "tr" and "claim-row" in classes:
            self.row = Row({k.removeprefix("data-"): v for k, v in a.items() if k != "class"})
            self.rows[a["id"].removeprefix("claim-")] = self.row
        elif self.row and tag == "td":
            self.in_cell = True
            self.row.text.append("")
            self.row.badges.append([])
        elif self.row and tag == "span":
            self.badge = Badge(classes, title=a.get("title", ""))
            (self.row.badges[-1] if "badge" in classes else self.row.cells).append(self.badge)
        elif self.row and tag == "a":
            self.row.links.append(a.get("href", ""))
        elif self.row and tag == "pre":
            self.row.values.append("")

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass
        if tag == "table":
            self.in_counts = False
        elif tag == "td":
            self.in_cell = False
        elif tag == "tr":
            self.row = None
        elif tag == "span":
            self.badge = None

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] == "style":
            self.style += data
        for _, element_id in self.open:
            if element_id:
                self.by_id[element_id] += data
        if self.in_counts and self.counts and data.strip():
            self.counts[-1].append(data.strip())
        if self.row and self.in_cell:
            self.row.text[-1] += data
        if self.badge:
            self.badge.text += data
        if self.row and self.open[-1][0] == "pre":
            self.row.values[-1] += data


def read(html: str) -> Page:
    """The page parsed."""
    page = Page()
    page.html = html
    page.feed(html)
    return page


def written(directory: Path, data: dict[str, Any], history: dict[str, Any] | None = None
            ) -> Path:
    """results.json (and history/<name>.json for each earlier run) in `directory`."""
    path = directory / "results.json"
    path.write_text(json.dumps(data))
    for name, run in (history or {}).items():
        (directory / "history").mkdir(exist_ok=True)
        (directory / "history" / f"{name}.json").write_text(json.dumps(run))
    return path


def rendered(directory: Path, data: dict[str, Any], history: dict[str, Any] | None = None
             ) -> Page:
    """The page write_report makes of `data` (with its history), parsed."""
    return read(write_report(written(directory, data, history)).read_text())
