"""The numbers a notebook printed, each with its line, its name and the group it belongs to.

A number is printed when it stands on an output line, or on a prose line that a print template
matched (a dump renders `display(Markdown(...))` as prose). It is named by the template slot
that printed it, else by its table column and row, else by the words just before it. Numbers
that one template slot printed over several lines (a loop), or one table column holds, share a
group: one draft claim each. Prose outside any output is read too, for results only (rates,
intervals, fractions, peak layers; harness.drafting.numbers), where it states a value not
printed anywhere."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.drafting.notebook import Kind, Line, Notebook, looks_like_prose, words
from harness.drafting.numbers import TOKEN, Form, Reading, mask_noise, read_numbers
from harness.drafting.template_matching import Match, match_line, name_of
from harness.drafting.templates import literal_lines, templates_of

TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
RULE_ROW = re.compile(r"^\s*\|[\s:|-]+\|\s*$")


@dataclass(frozen=True)
class PrintedNumber:
    """One number the notebook printed (or its prose stated), with where it stands."""

    reading: Reading
    line: Line
    name: str  # what printed it: a template slot's expression, a column, the words before it
    group: str  # numbers of one group are one draft claim (a slot in a loop, a table column)
    origin: str = "output"  # or "prose"
    label: str = field(default="", compare=False)  # the row or x value, in a series

    @property
    def value(self) -> float:
        return self.reading.value

    @property
    def text(self) -> str:
        return self.reading.text

    @property
    def context(self) -> str:
        """The line it stands on, shortened."""
        text = " ".join(self.line.text.split())
        return text if len(text) <= 160 else text[:157] + "..."


def _words_before(text: str, start: int, floor: int) -> str:
    before = re.sub(r"[^\w\s()<>/'’.-]", " ", text[floor:start])
    words = [w for w in before.split() if re.search(r"[A-Za-z]", w)]
    return " ".join(words[-5:]).strip(" .(-")


def _label(text: str, reading: Reading, previous_end: int) -> str:
    """The words just before a number (since the previous one), else those after it."""
    name = _words_before(text, reading.start, previous_end)
    if not name:
        after = re.sub(r"[^\w\s'-]", " ", text[reading.end:]).split()
        name = " ".join(w for w in after[:4] if re.search(r"[A-Za-z]", w))
    return name or "value"


def _cells(text: str) -> list[tuple[str, int, int]]:
    """A markdown table row's cells, each with its span in the line."""
    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", text)]
    return [(text[a + 1:b].strip(), a + 1, b) for a, b in zip(bars, bars[1:])]


class _Tables:
    """The header of the markdown or whitespace-aligned table a line belongs to, if any."""

    def __init__(self) -> None:
        self.markdown: tuple[list[str], int] | None = None
        self.aligned: tuple[list[str], int] | None = None

    def markdown_names(self, line: Line, readings: list[Reading]) -> list[str] | None:
        text = line.text
        if not TABLE_ROW.match(text):
            self.markdown = None
            return None
        cells = _cells(text)
        if RULE_ROW.match(text):
            return []
        if self.markdown is None:
            self.markdown = ([c for c, _, _ in cells], line.line)
            return []
        header = self.markdown[0]
        first = header[0] if header else ""
        row = cells[0][0] if cells else ""
        names = []
        for r in readings:
            column = next((j for j, (_, a, b) in enumerate(cells) if a <= r.start < b), 0)
            head = header[column] if column < len(header) else f"column {column + 1}"
            names.append(f"{head} ({first} {row})" if column else head)
        return names

    def aligned_columns(self, line: Line) -> tuple[list[str], int] | None:
        """For a row of a whitespace-aligned table (a DataFrame's to_string), its header."""
        text = line.text.strip()
        cells = re.split(r"\s{2,}", text)
        if line.kind is Kind.OUTPUT and len(cells) >= 2 and not any(
                re.fullmatch(r"[-+−\d.e%]+", c) for c in cells) and not TABLE_ROW.match(text):
            self.aligned = (cells, line.line)
            return None
        tokens = text.split()
        if self.aligned and tokens and all(re.fullmatch(r"[-+−\d.e%]+|True|False", t)
                                           for t in tokens):
            if len(tokens) == len(self.aligned[0]):
                return self.aligned
        if text:
            self.aligned = None
        return None


def _paragraph(text: str) -> bool:
    """Sentences, not values: fifteen words or more, or prose by its look."""
    return len(words(text)) >= 15 or looks_like_prose(text) and not re.search(r"\d", text)


def _single_number(text: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+−]?\d[\d.,]*(?:e[-+]?\d+)?%?\s*", text))


def _label_slots(text: str, match: Match) -> list[int]:
    """The slots that name a line rather than measure: words (a condition's name in a loop over
    conditions), and a first slot that is not one number (`(7, 3) -> (9, 9)`) when others
    follow."""
    values = [text[a:b].strip() for _, a, b in match.spans]
    found = [i for i, v in enumerate(values)
             if v and len(v) <= 30 and not TOKEN.search(mask_noise(v))
             and re.search(r"[A-Za-z]", v) and v not in ("True", "False", "None")]
    if len(values) > 1 and values[0] and len(values[0]) <= 30 and \
            not _single_number(values[0]) and not values[0].startswith("[") and \
            TOKEN.search(mask_noise(values[0])):
        found = [0, *found]
    return found


def _label_of(text: str, match: Match) -> str:
    """What a line's label slots printed, which tell its numbers apart from other lines'."""
    return " ".join(text[match.spans[i][1]:match.spans[i][2]].strip()
                    for i in _label_slots(text, match))


def _slot_of(reading: Reading, matches: tuple[Match, ...]) -> tuple[Match, int] | None:
    for match in matches:
        for i, (_, a, b) in enumerate(match.spans):
            if a <= reading.start < b or a < reading.end <= b:
                return match, i
    return None


def find_printed(notebook: Notebook) -> tuple[PrintedNumber, ...]:
    """Every number the notebook printed, named and grouped; then the results its prose states
    that no printed number already gives."""
    templates = templates_of(notebook.lines)
    typed = literal_lines(notebook.lines)
    tables = _Tables()
    printed: list[PrintedNumber] = []
    stated: list[PrintedNumber] = []
    for line in notebook.lines:
        if line.kind is Kind.CODE or not line.text.strip() or " ".join(line.text.split()) in typed:
            continue
        # a dump renders a displayed Markdown output as prose, so a template may show it printed;
        # a .ipynb keeps its outputs apart. A table row is named by its header, not a template.
        matchable = line.kind is Kind.OUTPUT or notebook.format == "text"
        matches = match_line(line.text, templates, line) if (
            templates and matchable and not TABLE_ROW.match(line.text)) else ()
        # a printed paragraph (a model's generated text) is read as prose: results only
        is_printed = bool(matches) or line.kind is Kind.OUTPUT and not _paragraph(line.text)
        readings = read_numbers(line.text, prose=not is_printed)
        if not readings:
            tables.aligned_columns(line)
            tables.markdown_names(line, [])
            continue
        if not is_printed:
            stated += [PrintedNumber(r, line, _label(line.text, r, 0), f"p{line.line}:{r.start}",
                                     "prose") for r in readings]
            continue
        column_names = tables.markdown_names(line, readings)
        aligned = tables.aligned_columns(line)
        previous_end = 0
        for k, r in enumerate(readings):
            slot = _slot_of(r, matches)
            if slot is not None:
                match, i = slot
                if i in _label_slots(line.text, match):
                    continue  # a label's numbers name the line, they measure nothing
                label = _label_of(line.text, match)
                group = f"t{match.template.line}.{match.template.index}.{i}|{label}"
                name = " ".join(filter(None, (name_of(match.template.slots[i]), label)))
                printed.append(PrintedNumber(r, line, name, group))
            elif any(m.start <= r.start < m.end for m in matches):
                continue  # a number in a matched template's literal text
            elif aligned is not None:
                header, at = aligned
                if k == 0:
                    continue  # the row's label (the x of a curve)
                printed.append(PrintedNumber(r, line, f"{header[k]} by {header[0]}",
                                             f"w{at}.{k}", label=readings[0].text))
            elif column_names:
                printed.append(PrintedNumber(r, line, column_names[k], f"m{line.line}:{r.start}"))
            else:
                printed.append(PrintedNumber(r, line, _label(line.text, r, previous_end),
                                             f"n{line.line}:{r.start}"))
            previous_end = r.end
    known = [p.reading for p in printed]
    return tuple(printed) + tuple(p for p in stated if not any(_restates(p.reading, k)
                                                                for k in known))


def _restates(prose: Reading, printed: Reading) -> bool:
    """Whether a prose number gives a printed one's value (at the prose's precision)."""
    if prose.form is Form.RATE and printed.form is Form.RATE:
        return (prose.count, prose.n) == (printed.count, printed.n)
    tolerance = 0.5 * 10 ** -(prose.decimals if prose.form is not Form.RATE else 2) + 1e-12
    return abs(prose.value - printed.value) <= tolerance
