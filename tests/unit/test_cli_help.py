"""Every interp-claims verb answers --help: exit 0, a usage line under its own name, a line that
says what it does, and every flag of its options described (issue 48)."""
from __future__ import annotations

import re

import pytest

from harness import cli

VERBS = ["status", "plan", *cli.TOOLS]


def helped(verb: str, capsys) -> tuple[int, str]:
    """The exit status and stdout of `interp-claims <verb> --help`, run in this process."""
    try:
        code = cli.main([verb, "--help"])
    except SystemExit as done:
        code = done.code
    return code, capsys.readouterr().out


def undescribed(text: str) -> list[str]:
    """The flags of an options section printed with no words beside or below them."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        flag = re.match(r"^  (-[\w-]+(?:[ ,=][^ ].*?)?)(\s{2,}(\S.*))?$", line)
        if not flag or flag.group(3):
            continue
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if not re.match(r"^\s{6,}\S", after):
            found.append(line.strip())
    return found


@pytest.mark.parametrize("verb", VERBS)
def test_each_verb_answers_help_with_its_name_and_purpose(verb, capsys):
    code, out = helped(verb, capsys)
    assert code == 0
    assert out.startswith(f"usage: interp-claims {verb}")
    paragraphs = [p for p in out.split("\n\n")[1:] if p.strip() and not p.startswith(
        ("options:", "positional arguments:", "commands:"))]
    assert paragraphs, f"{verb} --help says nothing of what it does"


@pytest.mark.parametrize("verb", VERBS)
def test_each_verbs_flags_are_described(verb, capsys):
    _, out = helped(verb, capsys)
    assert undescribed(out) == []


def test_an_undescribed_flag_is_found():
    text = "options:\n  -h, --help  show this\n  --quiet\n  --out OUT   where\n"
    assert undescribed(text) == ["--quiet"]


def test_a_flag_described_on_the_next_line_is_described():
    assert undescribed("options:\n  --a-very-long-flag LONG_VALUE\n                        its words\n") == []
