"""A source's register rows, the table in its folder's register.md (with, in a table of its own,
the checks the suite adds, which no row carries), and how its claims read the published values a
specification's rows print, its folder's register.toml. A source's rows print no values: its
claims declare them, and they are checked against the shared register's rows (the specification,
which prints them) where it is at hand."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Iterator, Mapping

from harness.registry import registered

REGISTER_FILE = "register.md"
READING_FILE = "register.toml"
# A row's kind cell: its kind, and the mark of what checking it needs beyond nothing but the
# published model (cpu: no model; tok: the tokenizer; hub: files from the hub).
KIND_CELL = re.compile(r"^(anchor|claim|measurement)(?: \[(\w+)\])?$")
CELL_BORDER = re.compile(r"(?<!\\)\|")  # a cell may hold an escaped bar, `<\|im_start\|>`
COLUMNS = {"id": "id", "kind": "kind", "§": "section", "what": "what", "published": "published"}
PUBLISHED = "published"  # the column only the specification's rows have
ADDED = ["id", "added because"]  # the header of the table of checks the suite adds


@dataclass(frozen=True)
class RegisterRow:
    """One published finding: its id, kind, notebook section, what was measured and, in the
    specification's rows, what was printed ("" in a source's own rows, which print no values)."""

    id: str
    kind: str
    section: str  # "" where the source's table has no § column
    what: str
    published: str = ""
    mark: str = ""

    @property
    def source_name(self) -> str:
        """The source the row belongs to, the first part of its id."""
        return self.id.split(".", 1)[0]


def _cells(line: str) -> list[str]:
    return [c.strip().replace("\\|", "|") for c in CELL_BORDER.split(line.strip())[1:-1]]


def _is_rule(cells: list[str]) -> bool:
    return all(set(c) <= set("-: ") for c in cells)


def _row(header: list[str], cells: list[str]) -> RegisterRow:
    fields = {COLUMNS[h]: c for h, c in zip(header, cells)}
    kind = KIND_CELL.match(fields.pop("kind"))
    if kind is None:
        raise ValueError(f"{fields['id']}: a kind is anchor, claim or measurement, with an "
                         "optional mark: 'anchor [cpu]'")
    return RegisterRow(kind=kind.group(1), mark=kind.group(2) or "",
                       section=fields.pop("section", ""), **fields)


def _tables(text: str) -> Iterator[tuple[list[str], list[str]]]:
    """(header, cells) for each body row of each table in the markdown, in order."""
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            if header != ADDED and not set(header) <= set(COLUMNS):
                raise ValueError(f"a register table's header is {list(COLUMNS)} (a subset) or "
                                 f"{ADDED}, not {header}")
        elif not _is_rule(cells):
            yield header, cells


def parse_register(text: str) -> tuple[RegisterRow, ...]:
    """Every register row of every table in a register's markdown, in order."""
    return tuple(_row(h, cells) for h, cells in _tables(text) if h != ADDED)


def parse_added(text: str) -> dict[str, str]:
    """The checks the suite adds, which no register row carries: claim id -> why."""
    return {cells[0]: cells[1] for h, cells in _tables(text) if h == ADDED}


def read_register(folder: Path) -> tuple[RegisterRow, ...]:
    """The register rows in a source's folder, which print no published values: a value is
    written once, in its claim's declaration."""
    path = folder / REGISTER_FILE
    text = path.read_text()
    if any(PUBLISHED in header for header, _ in _tables(text)):
        raise ValueError(f"{path}: a source's register rows print no published values (no "
                         f"'{PUBLISHED}' column): each claim declares its own, checked against "
                         "the shared register's row")
    return parse_register(text)


@cache
def rows_of(source_name: str) -> Mapping[str, RegisterRow]:
    """A registered source's register rows by claim id (none for a source that is not
    registered or whose folder holds no register), read once per process."""
    src = registered().get(source_name)
    if src is None or not (src.folder / REGISTER_FILE).is_file():
        return {}
    return {row.id: row for row in read_register(src.folder)}


def row_of(claim_id: str) -> RegisterRow | None:
    """The register row that carries `claim_id`, if any."""
    return rows_of(claim_id.split(".", 1)[0]).get(claim_id)


@dataclass(frozen=True)
class RegisterReading:
    """How a source's claims read the register: the claims no row carries and the published keys
    the specification's row does not print, each with its reason, and the keys a row prints in
    its `what` column (the experiment's design) rather than its `published` one."""

    unregistered: Mapping[str, str] = field(default_factory=dict)  # claim id -> why
    unprinted: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # id -> key -> why
    design: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # id -> keys

    def __post_init__(self) -> None:
        reasons = [*self.unregistered.items(),
                   *((f"{i}: {k}", why) for i, keys in self.unprinted.items()
                     for k, why in keys.items())]
        unreasoned = [what for what, why in reasons if not (isinstance(why, str) and why.strip())]
        if unreasoned:
            raise ValueError(f"each departure from the register states its reason: {unreasoned}")


def read_reading(folder: Path) -> RegisterReading:
    """How the claims of the source in `folder` read its rows: the checks its register.md adds,
    and the values its register.toml reads apart (none without the file)."""
    added = parse_added((folder / REGISTER_FILE).read_text())
    path = folder / READING_FILE
    data = tomllib.loads(path.read_text()) if path.is_file() else {}
    unknown = set(data) - {"unprinted", "design"}
    if unknown:
        raise ValueError(f"{path}: unknown tables {sorted(unknown)}")
    return RegisterReading(unregistered=added,
                           unprinted=data.get("unprinted", {}),
                           design={i: tuple(keys) for i, keys in data.get("design", {}).items()})
