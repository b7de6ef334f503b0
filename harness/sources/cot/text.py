"""Seed 000's text helpers (§1, §3, §4): answers, counts, spans, corruptions, substitutions."""
from __future__ import annotations

import re
from typing import Callable, Sequence

BOXED = re.compile(r"\\boxed\{\s*([-+]?\d+)\s*\}")
LOOSE_INTEGER = re.compile(r"(?<![\d.])(\d{2,6})(?![\d.])")
CUES = ("wait", "hold on", "that's not right", "mistake", "let me check", "hmm")

Decode = Callable[[Sequence[int]], str]


def parse_answer(text: str) -> int | None:
    """§1: the last \\boxed{N}, else the last standalone 2–6 digit integer, else None."""
    boxed = BOXED.findall(text)
    if boxed:
        return int(boxed[-1])
    loose = LOOSE_INTEGER.findall(text)
    return int(loose[-1]) if loose else None


def count_value(text: str, value: int) -> int:
    """§1: occurrences of `value` not embedded in a longer digit run."""
    return len(re.findall(r"(?<!\d)" + str(value) + r"(?!\d)", text))


def char_ends(decode: Decode, gen: Sequence[int], limit: int) -> list[int]:
    """§3: decoded length after each of the first `limit` tokens."""
    return [len(decode(gen[:k + 1])) for k in range(limit)]


def token_span(decode: Decode, gen: Sequence[int], ends: Sequence[int], limit: int, value: int,
               last: bool = False) -> tuple[int, int] | None:
    """§3: tokens [j0, j1) covering the first (or last) textual occurrence of `value`."""
    s = str(value)
    matches = list(re.finditer(r"(?<!\d)" + s + r"(?!\d)", decode(gen[:limit])))
    if not matches:
        return None
    start = (matches[-1] if last else matches[0]).start()
    j0 = j1 = None
    for k, end in enumerate(ends[:limit]):
        if j0 is None and end > start:
            j0 = k
        if j1 is None and end >= start + len(s):
            j1 = k + 1
            break
    if j0 is None or j1 is None or s not in decode(gen[j0:j1]):
        return None
    return j0, j1


def corrupt(value: int) -> int:
    """§3: move the leading digit by one (up, or down from 9), keeping the digit count."""
    d = str(value)
    lead = int(d[0]) + 1 if int(d[0]) < 9 else int(d[0]) - 1
    return int(f"{lead}{d[1:]}")


def substitute(text: str, old: int, new: int) -> str:
    """§4: replace every standalone occurrence of `old` with `new`."""
    return re.sub(r"(?<!\d)" + str(old) + r"(?!\d)", str(new), text)


def cue_count(text: str) -> int:
    """§3: how many self-correction cues a text contains (case-insensitive substring counts)."""
    low = text.lower()
    return sum(low.count(c) for c in CUES)


def after_close(text: str) -> str:
    """§3/§7: the text after the last `</think>`, or all of it when the block never closed."""
    return text.split("</think>")[-1] if "</think>" in text else text


def written_number(text: str) -> int | None:
    """§7: the first three-digit run in a short decoded continuation."""
    m = re.search(r"\d{3}", text)
    return int(m.group()) if m else None
