"""The notebook's print templates (f-strings, print calls), read from its code; which printed a
line is harness/drafting/template_matching.py.

A template is read from the code: a run of string literals that Python joins (implicit
concatenation, across lines too), or a one-line `print(...)` call with several arguments (joined
by spaces, as print does). Its expressions are its slots; a printed line that the template
matches gives each number inside a slot that slot's name (`{acc_belief:.3f}` names 0.745
"acc_belief"). Numbers in a template's literal text were typed by the author, not measured."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from harness.drafting.notebook import Kind, Line

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
