"""Seed 000 written again as plain code (issue 49): numbers read and rewritten as the notebook
does, for reference_answers: the restatement count (§1), the answer read (§1), the corruption of
a leading digit (§3) and the rewrite of every copy (§4)."""
from __future__ import annotations

import re

NUMBER = re.compile(r"\d+")
BOXED = re.compile(r"\\boxed\{\s*([-+]?\d+)\s*\}")


def count(text: str, value: int) -> int:
    """§1: how often `value` is written as a whole number (a digit run of its own)."""
    return sum(m.group() == str(value) for m in NUMBER.finditer(text))


def answer(text: str) -> int | None:
    """§1: the last boxed integer, else the last whole number of two to six digits with no '.'
    on either side, else None."""
    boxed = BOXED.findall(text)
    if boxed:
        return int(boxed[-1])
    loose = [m.group() for m in NUMBER.finditer(text) if 2 <= len(m.group()) <= 6
             and "." not in text[max(m.start() - 1, 0):m.start()] + text[m.end():m.end() + 1]]
    return int(loose[-1]) if loose else None


def corrupt(value: int) -> int:
    """§3: the leading digit one up (one down from 9), the digit count kept."""
    lead, rest = int(str(value)[0]), str(value)[1:]
    return int(f"{lead + 1 if lead < 9 else lead - 1}{rest}")


def replace_number(text: str, old: int, new: int) -> str:
    """§4: every whole number `old` in `text` written as `new`."""
    return NUMBER.sub(lambda m: str(new) if m.group() == str(old) else m.group(), text)
