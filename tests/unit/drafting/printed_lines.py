"""Notebook lines built by hand, and what the templates read from them printed, for the tests of
harness.drafting.templates and harness.drafting.template_matching."""
from __future__ import annotations

from harness.drafting.notebook import Kind, Line
from harness.drafting.template_matching import match_line, name_of
from harness.drafting.templates import templates_of


def code(*texts: str) -> list[Line]:
    """Code lines, numbered from 1."""
    return [Line(t, Kind.CODE, n) for n, t in enumerate(texts, 1)]


def printed(text: str, *lines: str) -> list[tuple[str, str]]:
    """Each slot's name and what it printed on `text`."""
    return [(name_of(e), text[a:b]) for m in match_line(text, templates_of(code(*lines)))
            for e, a, b in m.spans]
