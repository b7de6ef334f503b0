"""A draft source: one draft claim per printed number (or per series one print or column made),
each with its section, its `file:line` provenance and a suggested criterion."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from harness.drafting.notebook import Kind, Notebook
from harness.drafting.printed import PrintedNumber, find_printed
from harness.drafting.suggest import Suggestion, suggest

MODEL = re.compile(r"^(?P<repo>[\w.-]+/[\w.-]+)@(?P<revision>[\w.-]+)$")
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class ModelRef:
    """The published model: its hub repository and the revision the draft pins."""

    repo: str
    revision: str

    @classmethod
    def parse(cls, text: str) -> "ModelRef":
        """`ORG/NAME@REVISION`, or ValueError saying what is wrong."""
        found = MODEL.match(text)
        if found is None:
            raise ValueError(f"--model {text!r}: expected ORG/NAME@REVISION, e.g. "
                             "openai-community/gpt2@607a30d783dfa663caf39e06633721c8d4cfcd7e")
        return cls(found.group("repo"), found.group("revision"))


@dataclass(frozen=True)
class DraftClaim:
    """One drafted register row and claim test: its numbers, where they stand, how to judge."""

    id: str
    key: str
    section: str
    numbers: tuple[PrintedNumber, ...]
    suggestion: Suggestion
    notebook: str  # the notebook's file name

    @property
    def lines(self) -> tuple[int, ...]:
        """The file lines its numbers stand on, in order, once each."""
        return tuple(dict.fromkeys(p.line.line for p in self.numbers))

    @property
    def provenance(self) -> str:
        """`file:line` of its first number, with the last line of a series."""
        first = self.numbers[0]
        if not first.line.line:
            return (f"{self.notebook}:cell {first.line.cell}, line {first.line.cell_line}")
        lines = self.lines
        tail = f"-{lines[-1]} ({len(lines)} lines)" if len(lines) > 1 else ""
        return f"{self.notebook}:{lines[0]}{tail}"

    @property
    def published(self) -> dict[str, Any]:
        return self.suggestion.published

    @property
    def printed(self) -> str:
        """The numbers as printed."""
        texts = [p.text for p in self.numbers]
        return texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"

    @property
    def origin(self) -> str:
        """`output` for printed numbers, `prose` for results the text states."""
        return self.numbers[0].origin

    @property
    def statement(self) -> str:
        """What the line says around its (first) number."""
        return f"{self.numbers[0].name}: {self.numbers[0].context}"


@dataclass(frozen=True)
class Draft:
    """Everything `interp-claims new` writes, before it is written."""

    name: str
    notebook: Notebook
    model: ModelRef
    claims: tuple[DraftClaim, ...]
    title: str
    sha256: str


def slug(text: str) -> str:
    """A Python identifier for a name: lower case, underscores, at most 40 characters."""
    key = re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")[:40].strip("_") or "value"
    return f"v_{key}" if key[0].isdigit() else key


def _sections(notebook: Notebook) -> dict[int, str]:
    """Each line's section: the number of the nearest heading above it ("4" for "4. ..."), or the
    heading's words; "intro" before the first."""
    current, found = "intro", {}
    for index, line in enumerate(notebook.lines):
        heading = line.heading
        if heading:
            number = re.match(r"^(\d+(?:\.\d+)*)[.)]?\s", heading + " ")
            current = number.group(1) if number else slug(heading)[:24]
        found[index] = current
    return found


def _title(notebook: Notebook) -> str:
    heading = next((line.heading for line in notebook.lines if line.heading), None)
    return heading or notebook.path.stem


def draft(name: str, notebook: Notebook, model: ModelRef) -> Draft:
    """The draft source `name` for a notebook: its claims, grouped, keyed and suggested."""
    if not NAME.match(name):
        raise ValueError(f"source name {name!r}: lower case letters, digits and underscores, "
                         "starting with a letter (it becomes a package name)")
    index = {id(line): i for i, line in enumerate(notebook.lines)}
    sections = _sections(notebook)
    groups: dict[str, list[PrintedNumber]] = {}
    for number in find_printed(notebook):
        groups.setdefault(number.group, []).append(number)
    claims: list[DraftClaim] = []
    keys: set[str] = set()
    for numbers in groups.values():
        key = base = slug(numbers[0].name)
        k = 2
        while key in keys:
            key, k = f"{base}_{k}", k + 1
        keys.add(key)
        first = numbers[0]
        section = sections.get(index.get(id(first.line), -1), "intro")
        claims.append(DraftClaim(f"{name}.{key.replace('_', '-')}", key, section, tuple(numbers),
                                 suggest(key, tuple(numbers)), notebook.path.name))
    claims.sort(key=lambda c: (c.numbers[0].line.line, c.numbers[0].reading.start))
    raw = notebook.path.read_bytes()
    return Draft(name, notebook, model, tuple(claims), _title(notebook),
                 hashlib.sha256(raw).hexdigest())


def code_lines(notebook: Notebook, pattern: str, limit: int = 6) -> list[int]:
    """The first code lines matching `pattern` (where a stub's subject is in the notebook)."""
    found = [line.line for line in notebook.lines
             if line.kind is Kind.CODE and line.line and re.search(pattern, line.text)]
    return list(dict.fromkeys(found))[:limit]
