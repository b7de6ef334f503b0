"""What printed a line: the notebook's print templates (f-strings, print calls), matched to output.

A template is read from the code: a run of string literals that Python joins (implicit
concatenation, across lines too), or a one-line `print(...)` call with several arguments (joined
by spaces, as print does). Its expressions are its slots; a printed line that the template
matches gives each number inside a slot that slot's name (`{acc_belief:.3f}` names 0.745
"acc_belief"). Numbers in a template's literal text were typed by the author, not measured."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from harness.drafting.notebook import Kind, Line
from harness.drafting.numbers import TOKEN, mask_noise

STRING_LITERAL = re.compile(r"""(?P<prefix>[rRbBuUfF]{0,2})(?P<quote>["'])"""
                            r"""(?P<body>(?:\\.|(?!(?P=quote))[^\\\n])*)(?P=quote)""")
STRING_RUN = re.compile(r"""(?:(?<!\w)[rRbBuUfF]{0,2}(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""
                        r"""\s*)+""")
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}
MARKDOWN = re.compile(r"\*\*|__|`")
KWARGS = re.compile(r"^\s*(sep|end|file|flush)\s*=")


@dataclass(frozen=True)
class Part:
    """A piece of a template: literal text, or an expression (a slot)."""

    text: str
    slot: bool
    numeric: bool = False  # its format says number: a type (`:.3f`, `:d`) or right-aligned


@dataclass(frozen=True)
class Template:
    """One printed line's pattern: its parts, and the code line it was read from."""

    parts: tuple[Part, ...]
    line: int  # the code line it starts on (its identity, with `index`)
    index: int = 0  # where in its code block it starts, and which printed line of it
    cell: int = 0  # a .ipynb's cell it stands in (0 in a text dump)

    @property
    def slots(self) -> tuple[str, ...]:
        """Its expressions, in order."""
        return tuple(p.text for p in self.parts if p.slot)

    @property
    def literal_letters(self) -> int:
        """How many letters its literal text has: how specific a match is."""
        return sum(len(re.findall(r"[A-Za-z]", p.text)) for p in self.parts if not p.slot)

    @property
    def words(self) -> tuple[str, ...]:
        """Its literal text's words, in order: a line it printed holds them all."""
        return tuple(w for p in self.parts if not p.slot for w in MARKDOWN.sub("", p.text).split())

    def could_match(self, line: str) -> bool:
        """Whether the line holds the template's words in order (before any regex runs)."""
        at = 0
        for word in self.words:
            at = line.find(word, at)
            if at < 0:
                return False
            at += len(word)
        return True

    def pattern(self, anchored: bool, strict: bool = False) -> re.Pattern[str]:
        """A regex for a printed line; each slot a group `s<i>`. `strict`: a slot whose format
        says number matches only a number."""
        return _pattern(self, anchored, strict)


NUMBER_SLOT = r"[-+−]?\d[\d.,]*(?:e[-+]?\d+)?%?"


@lru_cache(maxsize=4096)
def _pattern(template: Template, anchored: bool, strict: bool) -> re.Pattern[str]:
    """The regex of a template: literal words joined by whitespace, each literal free to carry
    whitespace around it (a dump collapses padding), each slot a named group."""
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


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), body)


def _fstring_parts(body: str) -> list[Part]:
    """Literal text and `{expression[!conv][:spec]}` slots of an f-string's body."""
    parts: list[Part] = []
    literal, i = "", 0
    while i < len(body):
        c = body[i]
        if c in "{}" and body[i:i + 2] in ("{{", "}}"):
            literal += c
            i += 2
            continue
        if c != "{":
            literal += c
            i += 1
            continue
        depth, j = 1, i + 1
        while j < len(body) and depth:
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        inside = re.split(r"![rsa](?=:|$)|:(?![^\[\(]*[\]\)])", body[i + 1:j - 1], maxsplit=1)
        spec = body[i + 1:j - 1][len(inside[0]):].lstrip("!rsa:")
        expression = inside[0].strip().rstrip("=").strip()
        quoted = STRING_LITERAL.fullmatch(expression)
        i = j
        if quoted:  # `{'edge':>18}` prints its own text: literal, padded
            literal += " " + quoted.group("body") + " "
            continue
        if literal:
            parts.append(Part(_unescape(literal), False))
            literal = ""
        numeric = bool(re.search(r"[dfeEgGn%]$|^.?[>=]|[,.]\d", spec))
        parts.append(Part(expression, True, numeric))
    if literal:
        parts.append(Part(_unescape(literal), False))
    return parts


def _literal_parts(literal: re.Match[str]) -> list[Part]:
    body = literal.group("body")
    if "f" in literal.group("prefix").lower():
        return _fstring_parts(body)
    return [Part(_unescape(body), False)]


def _split_lines(parts: list[Part]) -> list[list[Part]]:
    """A template whose literal text holds line breaks, as one template per printed line."""
    lines: list[list[Part]] = [[]]
    for part in parts:
        if part.slot:
            lines[-1].append(part)
            continue
        pieces = part.text.split("\n")
        for k, piece in enumerate(pieces):
            if k:
                lines.append([])
            if piece:
                lines[-1].append(Part(piece, False))
    return [line for line in lines if line]


def _arguments(call: str) -> list[str] | None:
    """The top-level arguments of `print(...)` at the start of `call`; None if it does not close."""
    depth, args, current, i = 0, [], "", call.index("(") + 1
    while i < len(call):
        literal = STRING_LITERAL.match(call, i)
        if literal:
            current += literal.group(0)
            i = literal.end()
            continue
        c = call[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return [*args, current] if current.strip() else args
            depth -= 1
        elif c == "," and depth == 0:
            args.append(current)
            current = ""
            i += 1
            continue
        current += c
        i += 1
    return None


def _print_parts(args: list[str]) -> list[Part] | None:
    """A print call's arguments joined by spaces: literals as text, the rest as slots."""
    parts: list[Part] = []
    for k, arg in enumerate(a for a in args if not KWARGS.match(a)):
        if k:
            parts.append(Part(" ", False))
        literal = STRING_LITERAL.fullmatch(arg.strip())
        parts += _literal_parts(literal) if literal else [Part(arg.strip(), True)]
    return parts or None


def templates_of(lines: Iterable[Line]) -> tuple[Template, ...]:
    """Every template in the code lines: string runs, and print calls with several arguments."""
    found: list[Template] = []
    code = [line for line in lines if line.kind is Kind.CODE]
    blocks: list[list[Line]] = []
    for line in code:
        if blocks and blocks[-1][-1].line + 1 >= line.line - 1 and line.cell == blocks[-1][-1].cell:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    for block in blocks:
        text = "\n".join(line.text for line in block)
        starts = [0]
        for line in block:
            starts.append(starts[-1] + len(line.text) + 1)

        def line_at(offset: int, block: list[Line] = block, starts: list[int] = starts) -> int:
            k = max(i for i, s in enumerate(starts[:-1]) if s <= offset)
            return block[k].line or block[k].cell * 10_000 + block[k].cell_line

        cell = block[0].cell

        for run in STRING_RUN.finditer(text):
            parts = [p for literal in STRING_LITERAL.finditer(run.group(0))
                     for p in _literal_parts(literal)]
            for k, piece in enumerate(_split_lines(parts)):
                found.append(Template(tuple(piece), line_at(run.start()), run.start() * 100 + k,
                                      cell))
        for call in re.finditer(r"(?<![\w.])print\(", text):
            args = _arguments(text[call.start():])
            if args and len([a for a in args if not KWARGS.match(a)]) > 1:
                parts = _print_parts(args) or []
                for k, piece in enumerate(_split_lines(parts)):
                    found.append(Template(tuple(piece), line_at(call.start()),
                                          -(call.start() * 100 + k) - 1, cell))
    def same(t: Template) -> tuple:  # a dump repeats each cell's code on one line, spaces gone
        return tuple((" ".join(p.text.split()), p.slot) for p in t.parts)

    unique = {same(t): t for t in reversed(found)}  # the first of identical templates
    return tuple(t for t in found if unique[same(t)] is t and t.slots
                 and any(not p.slot and p.text.strip() for p in t.parts))


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


def literal_lines(lines: Iterable[Line]) -> frozenset[str]:
    """Every line of text the code holds as a plain string literal (whitespace collapsed): a
    printed line equal to one was typed by the author, not measured."""
    found = set()
    for line in lines:
        if line.kind is Kind.CODE:
            for literal in STRING_LITERAL.finditer(line.text):
                if "f" not in literal.group("prefix").lower():
                    found.update(" ".join(piece.split())
                                 for piece in _unescape(literal.group("body")).split("\n"))
    return frozenset(found - {""})


def match_line(text: str, templates: Iterable[Template],
               line: Line | None = None) -> tuple[Match, ...]:
    """The templates that printed `text` (the printed `line`, if given, prefers the code near
    it): the most specific one matching the whole line, else each that matches a part of it, as
    often as it does (a dump may join a loop's lines)."""
    bare = MARKDOWN.sub("", text).rstrip()
    offset = len(bare) - len(bare.lstrip())
    templates = [t for t in templates if t.could_match(bare)]
    whole = [c for t in templates
             if (f := t.pattern(True, strict=True).fullmatch(bare.strip())
                 or t.pattern(True).fullmatch(bare.strip())) is not None
             and (c := _candidate(bare, t, f, offset, True, line)) is not None]
    parts = [c for t in templates if t.literal_letters >= 4
             for f in t.pattern(anchored=False).finditer(bare)
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
