"""Whether a claim's published values are what the shared register's row prints.

The normalisation, value by value:
- A printed number is any decimal in the row's text: `12`, `0.80070`, `.625`, `1.67e-8`, signed
  where a minus (`-` or `−`) stands before it and after no letter or digit (`−0.00002`). A
  percentage `65%` prints 65 and 0.65; a ratio `13/20` prints 13, 20 and 0.65; an integer range
  `185–192` (an en dash) prints every integer from 185 to 192.
- A declared number (as its repr writes it) is printed when it rounds, half to even, to a printed
  number with decimals at that number's precision (0.8007 is `0.80070`, 0.125 is `12%`), or when
  it equals a printed integer, which admits no rounding.
- A declared value is read through lists, tuples and the values of mappings. Booleans, None and
  empty containers print no number (the row states them in words) and are not checked. A string
  is checked through the numbers in it (`'32.7'`, `'25*13+46<-25*16+46'`), unsigned; a string
  without digits must appear in the text as it is written, less its surrounding spaces, with each
  newline written `\\n` as a table cell writes it, and not inside a longer word."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any, Iterator, Mapping

from harness.register import RegisterReading, RegisterRow

NUMBER = re.compile(r"(?<!\d)(?<!\d\.)(?P<sign>(?<![\w.])[-−])?"
                    r"(?P<digits>\d+(?:\.\d+)?|\.\d+)(?:e(?P<exp>[-+−]?\d+))?(?P<percent>\s?%)?")
RATIO = re.compile(r"(?<![\d.])(\d+)/(\d+)(?![\d.])")
RANGE = re.compile(r"(?<![\d.])(\d+)–(\d+)(?![\d.])")


@dataclass(frozen=True)
class Printed:
    """A number as printed, and whether a declared value may round to it (it has decimals)."""

    value: Decimal
    rounded: bool

    def matches(self, declared: Decimal) -> bool:
        """Whether `declared` prints as this number at its printed precision."""
        if not self.rounded or abs(declared - self.value) >= 1:
            return declared == self.value
        return declared.quantize(Decimal(1).scaleb(self.value.as_tuple().exponent),
                                 rounding=ROUND_HALF_EVEN) == self.value


def _printed(text: str) -> Decimal:
    return Decimal(text.replace("−", "-"))


def _as_printed(value: Decimal) -> Printed:
    return Printed(value, rounded=value.as_tuple().exponent < 0)


def printed_numbers(text: str) -> tuple[Printed, ...]:
    """Every number the text prints: as written, a percentage or a ratio also as its fraction,
    and the integers inside a range."""
    found = []
    for m in NUMBER.finditer(text):
        number = m.group("digits") + (f"e{m.group('exp')}" if m.group("exp") else "")
        value = -_printed(number) if m.group("sign") else _printed(number)
        found.append(_as_printed(value))
        if m.group("percent"):
            found.append(_as_printed(value.scaleb(-2)))
    for top, bottom in RATIO.findall(text):
        if int(bottom):
            found.append(Printed(Decimal(top) / Decimal(bottom), rounded=False))
    for first, last in RANGE.findall(text):
        found += [Printed(Decimal(n), rounded=False) for n in range(int(first) + 1, int(last))]
    return tuple(found)


def declared_items(value: Any) -> Iterator[Decimal | str]:
    """The numbers (as decimals) and digit-free strings a declared value holds."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        yield Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    elif isinstance(value, str):
        digits = [abs(p.value) for p in printed_numbers(value)]
        yield from digits if digits else ([value.strip(" ")] if value.strip() else [])
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from declared_items(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from declared_items(item)
    else:
        raise TypeError(f"a published value of type {type(value).__name__} has no printed form")


def is_printed(item: Decimal | str, text: str) -> bool:
    """Whether the text prints a declared number or holds a declared string."""
    if isinstance(item, str):
        written = re.escape(item.replace("\n", "\\n"))
        return re.search(rf"(?<!\w){written}(?!\w)", text) is not None
    return any(p.matches(item) for p in printed_numbers(text))


def unprinted(value: Any, text: str) -> list[Decimal | str]:
    """The items of a declared value that the text does not print."""
    return [item for item in declared_items(value) if not is_printed(item, text)]


def unprinted_values(claim_id: str, published: Mapping[str, Any], row: RegisterRow,
                     reading: RegisterReading) -> dict[str, list[Decimal | str]]:
    """Per published key, what its register row does not print: in the row's `what` column for a
    key of the design, else in its `published` one; a key the reading declares unprinted is not
    checked."""
    design = reading.design.get(claim_id, ())
    exempt = reading.unprinted.get(claim_id, {})
    found = {}
    for key, value in published.items():
        missing = [] if key in exempt else unprinted(
            value, row.what if key in design else row.published)
        if missing:
            found[key] = missing
    return found
