"""Which of the notebook's print templates (harness/drafting/templates.py) printed a line, and
the name each slot gives the number it holds (`{acc_belief:.3f}` names 0.745 "acc_belief")."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from harness.drafting.notebook import Line
from harness.drafting.numbers import TOKEN, mask_noise
from harness.drafting.templates import MARKDOWN, Template


def could_match(template: Template, line: str) -> bool:
    """Whether the line holds the template's words in order (before any regex runs)."""
    at = 0
    for word in template.words:
        at = line.find(word, at)
        if at < 0:
            return False
        at += len(word)
    return True


NUMBER_SLOT = r"[-+−]?\d[\d.,]*(?:e[-+]?\d+)?%?"


@lru_cache(maxsize=4096)
def pattern(template: Template, anchored: bool, strict: bool = False) -> re.Pattern[str]:
    """A template's regex for a printed line: literal words joined by whitespace, each literal
    free to carry whitespace around it (a dump collapses padding), each slot a named group `s<i>`;
    `strict`: a slot whose format says number matches only a number."""
    out, slot = [], 0
    parts = template.parts
    last = max((i for i, p in enumerate(parts) if p.slot), default=-1)
    for i, part in enumerate(parts):
        if part.slot:
            edge = not anchored and (i == 0 or i == last == len(parts) - 1)
            if part.numeric:
                other = r".+?" if anchored else r"[^\s|]+"
                value = NUMBER_SLOT if strict else rf"(?:{NUMBER_SLOT}|{other})"
            else:
                value = r"\S+" if edge else r".+?"
            if out and out[-1] != r"\s*" and not out[-1].endswith(r"\s*") and i:
                out.append(r"\s*")
            out.append(rf"(?P<s{slot}>{value})")
            slot += 1
        else:
            words = MARKDOWN.sub("", part.text).split()
            out.append(r"\s*" + r"\s+".join(re.escape(w) for w in words) + r"\s*"
                       if words else r"\s*")
    return re.compile("".join(out))


@dataclass(frozen=True)
class Match:
    """A template matched on a printed line: each slot's expression and its span in the line."""

    template: Template
    spans: tuple[tuple[str, int, int], ...]  # (expression, start, end) in the line's text
    start: int = 0  # where the whole match stands in the line
    end: int = 0


def _nearness(template: Template, line: Line | None) -> float:
    """How near the code that holds a template is to a printed line: its own cell (a .ipynb),
    or the code just above it (a dump); between 0 and 3."""
    if line is None:
        return 0.0
    if line.cell:
        return 3.0 if template.cell == line.cell else 0.0
    gap = line.line - template.line
    return 3.0 * max(0.0, 1 - gap / 400) if gap > 0 else 0.0


def _candidate(bare: str, template: Template, found: re.Match[str], offset: int,
               exact: bool, line: Line | None = None) -> tuple[float, Match] | None:
    """A template's match on a line, scored by how specific it is; None where it is chance."""
    spans = tuple((expr, found.start(f"s{i}") + offset, found.end(f"s{i}") + offset)
                  for i, expr in enumerate(template.slots))
    values = [bare[a:b] for _, a, b in spans]
    literal = "".join(p.text for p in template.parts if not p.slot)
    weak = template.literal_letters < 4 and set(re.sub(r"\s", "", literal)) <= set(".,:;-'\"")
    if any(len(v) > (1000 if v.startswith(("[", "(")) else 60) for v in values) or weak and any(
            re.search(r"\s", v) and not v.startswith(("[", "(")) for v in values):
        return None  # a value spans words: a template of a few marks matched by chance
    if not any(TOKEN.search(mask_noise(v)) for v in values):
        return None  # names only numbers: a template that printed none is no evidence
    score = (template.literal_letters * 2 + exact - 0.1 * sum(len(v) for v in values)
             + _nearness(template, line))
    return score, Match(template, spans, found.start() + offset, found.end() + offset)


def match_line(text: str, templates: Iterable[Template],
               line: Line | None = None) -> tuple[Match, ...]:
    """The templates that printed `text` (the printed `line`, if given, prefers the code near
    it): the most specific one matching the whole line, else each that matches a part of it, as
    often as it does (a dump may join a loop's lines)."""
    bare = MARKDOWN.sub("", text).rstrip()
    offset = len(bare) - len(bare.lstrip())
    templates = [t for t in templates if could_match(t, bare)]
    whole = [c for t in templates
             if (f := pattern(t, True, strict=True).fullmatch(bare.strip())
                 or pattern(t, True).fullmatch(bare.strip())) is not None
             and (c := _candidate(bare, t, f, offset, True, line)) is not None]
    parts = [c for t in templates if t.literal_letters >= 4
             for f in pattern(t, anchored=False).finditer(bare)
             if (c := _candidate(bare, t, f, 0, False, line)) is not None]
    best_whole = max(whole, key=lambda c: c[0], default=None)
    chosen: list[Match] = []
    taken: set[int] = set()
    for _, match in sorted(parts, key=lambda c: -c[0]) if best_whole is None else ():
        region = set(range(match.start, match.end))
        if not region & taken:
            chosen.append(match)
            taken |= region
    if best_whole is not None:
        chosen = [best_whole[1]]
    chosen.sort(key=lambda m: m.spans[0][1])
    if MARKDOWN.sub("", text) != text:
        chosen = [_respan(text, bare, m) for m in chosen]
    return tuple(chosen)


def _respan(text: str, bare: str, match: Match) -> Match:
    """Spans in the markdown-stripped line moved back onto the original line."""
    mapping, j = [], 0
    for i, c in enumerate(text):
        if j < len(bare) and bare[j] == c:
            mapping.append(i)
            j += 1
    mapping.append(len(text))
    def at(i: int) -> int:
        return mapping[min(i, len(mapping) - 1)]

    spans = tuple((e, at(s), at(t)) for e, s, t in match.spans)
    return Match(match.template, spans, at(match.start), at(match.end))


def name_of(expression: str) -> str:
    """A short name for a slot's expression: `r['inject_ans']` -> inject_ans, `acc_belief` ->
    acc_belief, `len(records)` -> records_n, `p[0]` -> p_0, `sum(ok_obs)/200` -> ok_obs."""
    expression = expression.strip()
    length = re.fullmatch(r"len\((.+)\)", expression)
    if length:
        return f"{name_of(length.group(1))}_n"
    formatted = re.fullmatch(r"(?:format|fmt|show|pretty)\w*\((.+)\)", expression)
    if formatted:  # a helper that formats a value is named by the value
        return name_of(formatted.group(1))
    indexed = re.fullmatch(r"([A-Za-z_][\w.]*)\[\s*(-?\d+)\s*\]", expression)
    if indexed:
        return f"{indexed.group(1).split('.')[-1]}_{indexed.group(2).lstrip('-')}"
    keys = re.findall(r"\[\s*['\"](\w+)['\"]\s*\]", expression)
    if keys:
        arithmetic = re.search(r"[-+*/]", re.sub(r"\[[^\]]*\]|\([^)]*\)", "", expression))
        return "_".join(dict.fromkeys(keys)) if arithmetic else keys[-1]
    if re.fullmatch(r"[A-Za-z_][\w.]*", expression):
        return expression.split(".")[-1]
    names = [n for n in re.findall(r"[A-Za-z_]\w*", expression) if n not in BUILTINS]
    return "_".join(dict.fromkeys(names[:3])) or "value"


BUILTINS = {"sum", "len", "str", "int", "float", "round", "abs", "max", "min", "for", "in", "if",
            "else", "and", "or", "not", "item", "tolist", "r", "x", "i", "p", "k", "f", "format",
            "repr", "list", "tuple", "sorted"}
