"""How much of a hand-written register the drafter finds: the share of each source's published
numbers that appear among the numbers drafted from its notebook.

The rule, per source (one table of the register, whose heading names its seed file):

- the register's numbers are every number in the `published` column (inline code spans left
  out, `L15` read as 15, `95%` as 0.95, `−` as a minus), counted once per row;
- the drafted numbers are every number of every draft claim: a value, a rate's k, n and k/n, an
  interval's bounds, a fraction's n, a peak's layer (percents as fractions again);
- a register number is found when a drafted number equals it at the register's precision:
  within half a unit of its last printed digit (0.9999961853 finds 0.9999961853100103; 95%
  finds 19/20 and 0.95; 13/20 is found as 13 and 20, or as the rate 0.65 of "65%").

Small integers (0 to 10) are found almost anywhere; `distinctive` leaves them out, so both
shares are reported."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.drafting.notebook import Kind, read_notebook
from harness.drafting.numbers import Form, read_numbers
from harness.drafting.printed import PrintedNumber, find_printed

SOURCE_HEADING = re.compile(r"^##\s+Source\s+`(?P<name>[\w-]+)`.*?seed\s+`(?P<seed>[^`]+)`")
REGISTER_NUMBER = re.compile(r"(?<![\w.])L?(?P<n>[-−]?\d+(?:\.\d+)?(?:e[-−]?\d+)?)(?P<pct>%)?"
                             r"(?![\w]|\.\d)")


@dataclass(frozen=True)
class Share:
    """One source's published numbers, and which of them the drafter found."""

    source: str
    seed: str
    found: tuple[str, ...]
    missing: tuple[str, ...]
    drafted: int  # how many numbers the draft holds
    in_text: int = 0  # how many of the published numbers stand in its output or prose at all

    @property
    def total(self) -> int:
        return len(self.found) + len(self.missing)

    @property
    def share(self) -> float | None:
        """Found over published; None where the register publishes no number."""
        return len(self.found) / self.total if self.total else None

    def distinctive(self) -> float | None:
        """The share without the integers 0 to 10, which match almost anything."""
        def big(text: str) -> bool:
            return not re.fullmatch(r"-?(?:10|\d)", text.replace("−", "-"))

        found = [t for t in self.found if big(t)]
        total = found + [t for t in self.missing if big(t)]
        return len(found) / len(total) if total else None


def published_numbers(register: str) -> dict[tuple[str, str], list[list[str]]]:
    """Per (source, seed file): each row's distinct numbers in the `published` column."""
    tables: dict[tuple[str, str], list[list[str]]] = {}
    current: tuple[str, str] | None = None
    column: int | None = None
    for line in register.splitlines():
        heading = SOURCE_HEADING.match(line)
        if heading:
            current, column = (heading.group("name"), heading.group("seed")), None
            tables[current] = []
            continue
        if current is None or not line.startswith("|"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if column is None:
            column = cells.index("published") if "published" in cells else None
            continue
        if set("".join(cells)) <= set("-: ") or column >= len(cells):
            continue
        text = re.sub(r"`[^`]*`|\*\*", " ", cells[column])
        numbers = [m.group("n") + (m.group("pct") or "") for m in REGISTER_NUMBER.finditer(text)]
        tables[current].append(list(dict.fromkeys(numbers)))
    return tables


def register_value(text: str) -> tuple[float, float]:
    """A register number's value and half a unit of its last digit."""
    plain = text.replace("−", "-").rstrip("%")
    mantissa, _, exponent = plain.lower().partition("e")
    places = len(mantissa.split(".")[1]) if "." in mantissa else 0
    scale = 10 ** int(exponent) if exponent else 1
    value, unit = float(mantissa) * scale, 10 ** -places * scale
    if text.endswith("%"):
        value, unit = value / 100, unit / 100
    return value, unit / 2 + 1e-12 * max(1.0, abs(value))


def drafted_values(numbers: tuple[PrintedNumber, ...]) -> list[float]:
    """Every number a draft holds: values, rates' k, n and k/n, bounds, n's and layers."""
    values: list[float] = []
    for p in numbers:
        r = p.reading
        values.append(r.value)
        if r.form is Form.RATE:
            values += [float(r.count or 0), float(r.n or 0)]
        if r.interval is not None:
            values += list(r.interval)
        if r.n is not None:
            values.append(float(r.n))
    return values


def measure(register: Path, seeds: Path) -> list[Share]:
    """Each source's share: its register numbers found among those drafted from its seed."""
    shares = []
    for (name, seed), rows in published_numbers(register.read_text()).items():
        notebook = seeds / seed
        read = read_notebook(notebook) if notebook.exists() else None
        numbers = find_printed(read) if read else ()
        values = drafted_values(numbers)
        anywhere = [r.value for line in (read.lines if read else ()) if line.kind is not Kind.CODE
                    for r in read_numbers(line.text)] + values
        found, missing, in_text = [], [], 0
        for row in rows:
            for text in row:
                value, tolerance = register_value(text)
                (found if any(abs(v - value) <= tolerance for v in values) else
                 missing).append(text)
                in_text += any(abs(v - value) <= tolerance for v in anywhere)
        shares.append(Share(name, seed, tuple(found), tuple(missing), len(numbers), in_text))
    return shares


def report(shares: list[Share]) -> str:
    """The shares as a table, with the numbers each missed."""
    lines = ["| source | seed | published numbers | in its output or prose | found in the draft "
             "| share | share without 0-10 | numbers drafted |", "|---|---|---|---|---|---|---|---|"]
    for s in shares:
        share = "—" if s.share is None else f"{s.share:.0%}"
        distinctive = s.distinctive()
        rest = "—" if distinctive is None else f"{distinctive:.0%}"
        note = " (prints no numbers)" if not s.drafted else ""
        lines.append(f"| {s.source} | {s.seed} | {s.total} | {s.in_text} | {len(s.found)} | "
                     f"{share}{note} | {rest} | {s.drafted} |")
    for s in shares:
        if s.missing:
            lines.append(f"\n{s.source} missed: {', '.join(s.missing)}")
    return "\n".join(lines)
