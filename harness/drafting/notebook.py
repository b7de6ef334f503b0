"""A notebook read into lines, each marked as code, printed output or prose, with its file line.

Two formats are read:

- a `.ipynb` (nbformat JSON): markdown cells are prose; code cells' source is code and their
  outputs (stdout streams, `text/markdown` or else `text/plain` of execute_result and
  display_data) are printed output. stderr and object reprs (`<Figure ...>`) are left out.
  A line's provenance is the line of the raw JSON file that holds it (nbformat writes one source
  or output line per JSON line), so `file:line` opens at it in any editor or page; where a string
  cannot be found there (a notebook written without indentation), the line is 0 and the
  provenance falls back to `file:cell N, line M` (M counts the cell's source lines, then its
  printed lines).
- a plain-text dump (what a notebook page's text reads as, like the seeds): each physical line is
  classified by its look (harness.drafting.notebook.classify), since no cell boundaries survive.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class Kind(StrEnum):
    """What a notebook line is."""

    CODE = "code"
    OUTPUT = "output"
    PROSE = "prose"


@dataclass(frozen=True)
class Line:
    """One line of a notebook: its text, kind and where it stands in the file."""

    text: str
    kind: Kind
    line: int  # from 1 in the file; 0 where a .ipynb string could not be placed
    cell: int = 0  # .ipynb: the cell, from 1 (0 for a text dump)
    cell_line: int = 0  # .ipynb: the line in the cell's source then its outputs, from 1

    @property
    def heading(self) -> str | None:
        """The heading this line is, without its marks, or None."""
        text = self.text.strip()
        if self.kind is not Kind.PROSE or not text:
            return None
        if text.endswith("¶"):
            return text.rstrip("¶").strip()
        if re.match(r"^#{1,6}\s+\S", text):
            return text.lstrip("#").strip()
        return None


@dataclass(frozen=True)
class Notebook:
    """A notebook's lines, in order, and the file they were read from."""

    path: Path
    lines: tuple[Line, ...]
    format: str  # "ipynb" or "text"

    def provenance(self, line: Line) -> str:
        """`file:line`, or `file:cell N, line M` where the line is not placed in the file."""
        if line.line:
            return f"{self.path.name}:{line.line}"
        return f"{self.path.name}:cell {line.cell}, line {line.cell_line}"


def read_notebook(path: Path) -> Notebook:
    """The notebook at `path`: JSON cells for .ipynb, classified lines for anything else."""
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix == ".ipynb":
        return Notebook(Path(path), _ipynb_lines(text), "ipynb")
    texts = text.splitlines()
    kinds = classify(texts)
    return Notebook(Path(path), tuple(Line(t, k, n) for n, (t, k) in
                                      enumerate(zip(texts, kinds), 1)), "text")


# --- .ipynb ---------------------------------------------------------------------------------------

def _pieces(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _output_pieces(output: dict) -> list[str]:
    kind = output.get("output_type")
    if kind == "stream":
        return _pieces(output.get("text", "")) if output.get("name") == "stdout" else []
    if kind in ("execute_result", "display_data"):
        data = output.get("data", {})
        if "text/markdown" in data:
            return _pieces(data["text/markdown"])
        plain = "".join(_pieces(data.get("text/plain", "")))
        if plain and not re.fullmatch(r"\s*<.*>\s*", plain, re.S):
            return _pieces(data["text/plain"])
    return []


class _RawLines:
    """The raw JSON file's lines, each decoded where it holds one JSON string."""

    def __init__(self, text: str) -> None:
        self.decoded: list[str | None] = []
        for raw in text.splitlines():
            item = raw.strip().rstrip(",")
            try:
                value = json.loads(item) if item.startswith('"') else None
            except json.JSONDecodeError:
                value = None
            self.decoded.append(value if isinstance(value, str) else None)
        self.cursor = 0

    def place(self, piece: str) -> int:
        """The line (from 1) of the next raw line holding `piece` exactly; 0 if none."""
        for i in range(self.cursor, len(self.decoded)):
            if self.decoded[i] == piece:
                self.cursor = i + 1
                return i + 1
        return 0


def _ipynb_lines(text: str) -> tuple[Line, ...]:
    raw = _RawLines(text)
    lines: list[Line] = []
    for number, cell in enumerate(json.loads(text).get("cells", []), 1):
        source_kind = Kind.CODE if cell.get("cell_type") == "code" else Kind.PROSE
        groups = {"source": [(source_kind, _pieces(cell.get("source", [])))],
                  "outputs": [(Kind.OUTPUT, _output_pieces(o)) for o in cell.get("outputs", [])]}
        # each piece's raw line, placed in the file's order (nbformat writes outputs first)
        placed = {key: [[raw.place(piece) for piece in pieces] for _, pieces in groups[key]]
                  for key in cell if key in groups}
        within = 0  # counted over the cell's source, then its outputs
        for key in ("source", "outputs"):
            for g, (kind, pieces) in enumerate(groups[key]):
                for i, piece in enumerate(pieces):
                    at = placed[key][g][i] if key in placed else 0
                    for part in piece.splitlines() or [""]:
                        within += 1
                        lines.append(Line(part, kind, at, number, within))
    return tuple(lines)


# --- plain-text dumps -----------------------------------------------------------------------------

CODE_START = re.compile(
    r"^(def |class |import |from [\w.]+ import |for .* in |while |if |elif |else\s*:|try\s*:|"
    r"except\b|finally\s*:|with |return\b|yield\b|raise\b|assert |print\(|@\w|#|!\w|%\w|async |"
    r"await |global |nonlocal |lambda\b|del |pass$|break$|continue$|and |or |not |in |is )")
ASSIGN = re.compile(r"^\(?[A-Za-z_][\w.]*(\[(?:[^\[\]]|\[[^\]]*\])*\])*"
                    r"(\s*,\s*\*?[A-Za-z_][\w.]*(\[(?:[^\[\]]|\[[^\]]*\])*\])*)*\)?"
                    r"\s*(:\s*[\w\[\], .|]+)?\s*(=|\+=|-=|\*=|/=|\|=)(?!=)")
CALL = re.compile(r"^(?:[A-Za-z_][\w.]*|\(.*\)\.[\w.]+)\(.*\)[\w.\[\]()]*;?$")
KEYWORD_ARGUMENT = re.compile(r"^\**[A-Za-z_]\w*=[^=]")
STRING_LINE = re.compile(r"^[rfbuRFBU]{0,2}(\"|')")
CLOSERS = re.compile(r"^[)\]}]+[,;:)\]}.\w()]*\s*(#.*)?$|^\)\s*(->.*)?:$")
CODE_SYMBOL = re.compile(r"[()\[\]{}=<>+*/%@\\]|\w_|_\w|[A-Za-z_]\.[A-Za-z_](?<!e\.g)(?<!i\.e)")
STRING = re.compile(r"'''.*?'''|\"\"\".*?\"\"\"|"
                    r"[rfbuRFBU]{0,2}(\"(\\.|[^\"\\])*\"|'(\\.|[^'\\])*')")
TABLE_ROW = re.compile(r"^\|.*\|$")
CELL_MARKER = re.compile(r"^(In|Out)\s*\[[\d ]*\]:\s*$")


def words(text: str) -> list[str]:
    """The words of a text (letters, not glued to digits or dots)."""
    return re.findall(r"(?<![\w.])[A-Za-z][A-Za-z'’-]*(?!\w|\.\w)", text)


def looks_like_prose(text: str) -> bool:
    """Sentences: six words or more, with code's symbols (outside quoted text) rare among them."""
    bare = STRING.sub("", text)
    count = len(words(bare))
    symbols = len(CODE_SYMBOL.findall(bare))
    return count >= 6 and (symbols == 0 or count >= 12 and symbols <= 0.25 * count)


def looks_like_code(text: str) -> bool:
    """A Python statement, a continuation of one, or a string literal on its own line."""
    text = text.strip()
    if CELL_MARKER.match(text) or re.match(r"^[rRbBuU]?(\"\"\"|\'\'\')", text):
        return True
    if not text or text.endswith("¶") or TABLE_ROW.match(text):
        return False
    statement = re.sub(r"\s+#[^\"']*$", "", text)  # a trailing comment
    starts = any(p.match(statement) for p in (CODE_START, ASSIGN, CALL, KEYWORD_ARGUMENT,
                                               STRING_LINE, CLOSERS))
    if starts:
        return not looks_like_prose(text) or text.endswith((":", "(", "[", "{", ","))
    bare = STRING.sub("", text)
    return bool(bare) and bare.rstrip().endswith(("(", "[", "{", ",", "\\")) and \
        bool(CODE_SYMBOL.search(bare)) and not looks_like_prose(text)


def _strong_prose(text: str) -> bool:
    bare = STRING.sub("", text)
    return len(words(text)) >= 12 and bare == text and not CODE_SYMBOL.search(bare)


def _depth(text: str) -> int:
    bare = STRING.sub("", text.split(" #")[0])
    return sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")


def _output_like(text: str) -> bool:
    stripped = text.strip()
    if stripped.endswith("¶"):
        return False
    if TABLE_ROW.match(stripped) or "\t" in stripped:
        return True
    return not looks_like_prose(stripped) or len(words(stripped)) < 10 and \
        not stripped.endswith((".", "?", "!", ":"))


def classify(texts: list[str]) -> list[Kind]:
    """Each line's kind in a text dump: code by its look (open brackets and triple-quoted
    strings carry on to the lines after); then output where it reads as printed values (or
    follows code with no prose in between), prose where it reads as sentences or a heading."""
    kinds: list[Kind] = []
    depth, in_string, continued, last = 0, False, False, Kind.PROSE
    for text in texts:
        if text.strip().endswith("¶") or depth and _strong_prose(text):
            depth, in_string = 0, False
        comment = text.lstrip().startswith("#") and last is Kind.CODE  # not a heading
        code = in_string or depth > 0 or continued or comment or looks_like_code(text)
        continued = code and text.rstrip().endswith("\\")
        if code:
            if text.count('"""') % 2 or text.count("'''") % 2:
                in_string = not in_string
            if not in_string:
                depth = max(0, depth + _depth(text)) if depth or looks_like_code(text) else 0
            depth = min(depth, 8)
        kinds.append(Kind.CODE if code else Kind.PROSE)
        if text.strip():
            last = kinds[-1]
    after_code = False
    for i, text in enumerate(texts):
        if kinds[i] is Kind.CODE:
            after_code = True
            continue
        if not text.strip():
            continue
        if after_code and _output_like(text):
            kinds[i] = Kind.OUTPUT
        elif TABLE_ROW.match(text.strip()) and re.search(r"\d", text):
            kinds[i] = Kind.OUTPUT
        else:
            after_code = False
    return kinds
