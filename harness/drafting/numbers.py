"""Numbers in a line of text, and the forms that carry their uncertainty.

Recognised, in this order (each number belongs to one reading):

- a mean with its interval: `0.42 [0.31, 0.55]`, `0.42 (0.31, 0.55)`, `0.42 ± 0.05`;
- a rate with its n: `13/20`, `19/20 = 95%`, `13/20 (65%)` (the percent restates the rate),
  and in prose `13 of 20`;
- a fraction with its n: `0.856 (n=104)`;
- a peak layer: `peak ... at layer 15`, `best layer: 34`, `peak at L15`;
- a percent, read as a fraction (`95%` is 0.95);
- any other number, as printed.

Dates, clock times, version strings, hashes and numbers glued to letters (`A40`, `cu128`,
`Llama-3.1-8B`, `638s`) are not numbers here."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

NUMBER = r"[-+−]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
TOKEN = re.compile(rf"(?<![\w.])(?<![A-Za-z]-)(?P<n>{NUMBER})(?P<pct>%)?(?!\w|\.\d|-[A-Za-z])")
NOISE = re.compile("|".join((
    r"\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?",  # dates
    r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?",  # clock times
    r"\d+\.\d+\.\d+[\w.+]*",  # versions
    r"(?i:python|cuda|torch|version)\s+\d+(?:\.\d+)+",
    r"(?<![.\d])\b(?=[0-9a-f]*[a-f][0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{12,}\b",  # hashes
    r"\b\d{4}\.\d{4,5}(?:v\d+)?\b",  # arXiv ids
    r"(?:^|(?<=\s))\d{1,2}\.(?=\s+[A-Z])",  # a numbered list's markers
    r"https?://\S+", r"(?<![\w)])(?:~|\.{1,2})?(?:/[\w.-]*[A-Za-z][\w.-]*){2,}/?",  # paths
    r"\w+\.(?:py|ipynb|json|txt|md)\b(?::\d+)?")))
PROGRESS = re.compile(r"it/s|s/it|\d+%\||\w+Warning\b|Traceback|\w+Error:")  # blanked lines
INTERVAL = re.compile(rf"(?P<v>{NUMBER})\s*[\[(]\s*(?P<lo>{NUMBER})\s*,\s*(?P<hi>{NUMBER})\s*[\])]"
                      rf"|(?P<pv>{NUMBER})\s*±\s*(?P<pm>{NUMBER})")
RATE = re.compile(rf"(?<![\w./])(?P<k>\d+)\s*/\s*(?P<n>\d+)(?![\w/]|\.\d)"
                  rf"(?:\s*(?:=\s*|\(\s*)(?P<pct>{NUMBER})%\)?)?")
RATE_IN_WORDS = re.compile(r"(?<![\w.])(?P<k>\d+) (?:of|out of) (?P<n>\d+)(?![\w.])")
WITH_N = re.compile(rf"(?P<v>{NUMBER})\s*\(\s*n\s*=\s*(?P<n>\d+)\s*\)")
PEAK = re.compile(r"\b(?:peaks?|best|max(?:imum)?|highest)\b(?:[^.;\n]|\.(?=\d)){0,40}?"
                  r"(?:\blayer|\bblock|(?<![\w])L)\s*:?\s*(?P<layer>\d+)\b", re.I)


class Form(StrEnum):
    """What a printed number is, as far as its text tells."""

    INTERVAL = "mean with interval"
    RATE = "rate"
    FRACTION = "fraction"
    PEAK = "peak layer"
    VALUE = "value"


@dataclass(frozen=True)
class Reading:
    """One number read from a line: its value, text, span and form, and what comes with it."""

    value: float  # a percent as a fraction; a rate as k/n
    text: str
    start: int
    end: int
    form: Form = Form.VALUE
    count: int | None = None  # a rate's k
    n: int | None = None  # a rate's or a fraction's n
    interval: tuple[float, float] | None = None
    layer: int | None = None  # a peak's layer (its value too)

    @property
    def decimals(self) -> int:
        """How many decimals it was printed with (a percent's count those of the fraction)."""
        mantissa = re.split(r"[eE]", self.text.rstrip("%"))[0]
        places = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return places + 2 if self.text.endswith("%") else places


def to_float(text: str) -> float:
    """A printed number's value; a percent as a fraction."""
    value = float(text.rstrip("%").replace("−", "-"))
    return value / 100 if text.endswith("%") else value


def mask_noise(text: str) -> str:
    """The line with dates, times, versions, hashes, paths and URLs blanked (spans kept)."""
    if PROGRESS.search(text):
        return " " * len(text)
    return NOISE.sub(lambda m: " " * len(m.group(0)), text)


def read_numbers(text: str, prose: bool = False) -> list[Reading]:
    """Every number in `text`, each in the form its surroundings give it. In prose only the
    forms that carry a result are read (intervals, rates, fractions, percents, decimals, peak
    layers), not bare integers, which prose uses for everything."""
    masked = mask_noise(text)
    taken: set[int] = set()
    found: list[Reading] = []

    def free(a: int, b: int) -> bool:
        return not any(i in taken for i in range(a, b))

    def take(reading: Reading, a: int, b: int) -> None:
        taken.update(range(a, b))
        found.append(reading)

    for m in INTERVAL.finditer(masked):
        if not free(m.start(), m.end()):
            continue
        if m.group("v") is not None:
            v, lo, hi = (to_float(m.group(g)) for g in ("v", "lo", "hi"))
        else:
            v, pm = to_float(m.group("pv")), to_float(m.group("pm"))
            lo, hi = v - abs(pm), v + abs(pm)
        if lo <= v <= hi and lo < hi:
            take(Reading(v, m.group(0), m.start(), m.end(), Form.INTERVAL, interval=(lo, hi)),
                 m.start(), m.end())
    for pattern in (RATE, RATE_IN_WORDS) if prose else (RATE,):
        for m in pattern.finditer(masked):
            k, n = int(m.group("k")), int(m.group("n"))
            end = m.end()
            pct = m.groupdict().get("pct")
            if pct is not None and abs(float(pct) - 100 * k / max(n, 1)) > 1:
                end = m.end("n")  # a percent that is not this rate's is read on its own
            if 0 <= k <= n and n > 0 and free(m.start(), end):
                take(Reading(k / n, masked[m.start():end], m.start(), end, Form.RATE, count=k,
                             n=n), m.start(), end)
    for m in WITH_N.finditer(masked):
        if free(m.start(), m.end()):
            take(Reading(to_float(m.group("v")), m.group(0), m.start(), m.end(), Form.FRACTION,
                         n=int(m.group("n"))), m.start(), m.end())
    for m in PEAK.finditer(masked):
        a, b = m.start("layer"), m.end("layer")
        if free(a, b):
            layer = int(m.group("layer"))
            take(Reading(float(layer), m.group("layer"), a, b, Form.PEAK, layer=layer), a, b)
    for m in TOKEN.finditer(masked):
        a, b = m.start(), m.end()
        if not free(a, b):
            continue
        number = m.group(0)
        form = Form.FRACTION if m.group("pct") else Form.VALUE
        if prose and form is Form.VALUE and "." not in number:
            continue
        take(Reading(to_float(number), number, a, b, form), a, b)
    return sorted(found, key=lambda r: r.start)
