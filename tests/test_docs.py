"""README.md, reports/README.md and docs/: every make target and its variables, interp-claims verb,
flag and file they name exists (issue 37: docs that say what is not so), and they run the suite's
tools only through `make` and `interp-claims`, never as `python -m harness...` (issue 48)."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from harness.registry import get_profile
from tests.paths import ROOT

DOCS = [ROOT / "README.md", ROOT / "reports" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Flags of tools other than the suite's own, which the docs pass to them.
OTHER_TOOLS = {"--snapshot-update", "--require-hashes", "--no-index", "--no-deps", "--target",
               "--find-links", "--system-site-packages", "--extra-index-url", "--index-url",
               "--only-binary", "--python-version", "--platform", "--generate-hashes",
               "--universal", "--python-platform", "--upgrade", "--strip-extras"}


def code_spans(path: Path) -> list[str]:
    """Shell blocks, and inline code with any line break in it made a space (Markdown lets a span
    run over a line end)."""
    text = path.read_text()
    fence = r"```\w*\n(.*?)```"
    prose = re.sub(fence, "", text, flags=re.S)
    return re.findall(fence, text, re.S) + [" ".join(span.split()) for span in
                                           re.findall(r"`([^`]+)`", prose) if "\n\n" not in span]


def named(pattern: str) -> list[tuple[str, str]]:
    """(doc, match) for each match of `pattern` in the docs' code."""
    return [(d.relative_to(ROOT).as_posix(), m) for d in DOCS for code in code_spans(d)
            for m in re.findall(pattern, code)]


def plugin_flags() -> set[str]:
    """Every option the suite's pytest plugin, xdist and syrupy register."""
    import importlib

    from _pytest.config.argparsing import Parser

    parser = Parser()
    for name in ("harness.plugin.options", "xdist.plugin", "syrupy"):
        module = importlib.import_module(name)
        if module.pytest_addoption.__code__.co_argcount == 1:
            module.pytest_addoption(parser)
        else:
            module.pytest_addoption(parser=parser, pluginmanager=None)
    return {name for group in [parser._anonymous, *parser._groups] for option in group.options
            for name in option.names()}


def module_flags(module: str) -> set[str]:
    """The --flags a `python -m` module's argparse declares, in its package's files."""
    spec = importlib.util.find_spec(module)
    main = importlib.util.find_spec(f"{module}.__main__") if spec.submodule_search_locations \
        else None
    origin = Path((main or spec).origin)
    files = origin.parent.glob("*.py") if main else [origin]
    return {f for path in files for f in re.findall(r"add_argument\(\s*\"(--[\w-]+)\"",
                                                     path.read_text())}


MAKEFILE = (ROOT / "Makefile").read_text()


def test_every_make_target_named_exists():
    targets = set(re.findall(r"^([a-z][\w-]*):", MAKEFILE, re.M))
    assert [(d, t) for d, t in named(r"\bmake ([a-z][\w-]*)") if t not in targets] == []


def test_every_variable_given_to_make_is_one_the_makefile_reads():
    given = [(d, v) for d, (_, after) in named(r"\bmake ([a-z][\w-]*)((?: +[A-Z][A-Z0-9_]*=\S*)*)")
             for v in re.findall(r"([A-Z][A-Z0-9_]*)=", after)]
    assert [(d, v) for d, v in given if not re.search(rf"\$\({v}\)|^{v} [?:]?=", MAKEFILE,
                                                            re.M)] == []


def test_no_doc_runs_a_harness_module_itself():
    """The docs name `make` targets and `interp-claims` verbs, never `python -m harness...`."""
    assert [(d.relative_to(ROOT).as_posix(), n + 1) for d in DOCS
            for n, line in enumerate(d.read_text().splitlines())
            if re.search(r"python(3[\d.]*)? -m harness", line)] == []


def verb_flags(verb: str) -> set[str]:
    """The --flags `interp-claims <verb>` takes: its module's, status's --results, or for plan the
    plugin's (it passes them to pytest)."""
    from harness import cli

    if verb == "status":
        return {"--results"}
    if verb == "plan":
        return plugin_flags()
    return module_flags(cli.TOOLS[verb][0])


def test_every_flag_given_to_an_interp_claims_verb_is_its_own():
    from harness import cli

    wrong = []
    for doc, (verb, args) in named(r"interp-claims ([a-z][\w-]*)([^`\n|;]*)"):
        if verb not in {*cli.TOOLS, "status", "plan"}:
            continue
        flags = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", args)) - OTHER_TOOLS - {"--help"}
        wrong += [(doc, verb, f) for f in flags - verb_flags(verb)]
    assert wrong == []


def test_every_pytest_flag_named_is_registered():
    known = plugin_flags() | OTHER_TOOLS
    flags = {(d, f) for d, args in named(r"pytest([^`\n|;]*)")
             for f in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", args)}
    assert sorted((d, f) for d, f in flags if f not in known) == []


# What runs write (reports/README.md lists them) and names that are not repository files.
GENERATED = re.compile(r"^(reports/|snapshots/[\w-]+/$|\.offline/|\.uv-tool/|wheelhouse/|history/|hub/|"
                       r"canary/|seeds/|[\w-]+\.json$|packages\.txt$)")
MODELS = {spec.hf_id for p in ("published",) for spec in get_profile(p).models.values()}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_file_named_exists(doc: Path):
    names = {span for span in code_spans(doc)
             if re.fullmatch(r"[\w./-]+", span) and not span.startswith(("../", "/", "-"))
             and ("/" in span or re.search(r"\.(py|md|lock|yml|j2|toml|ini|in)$", span))}
    missing = [n for n in sorted(names) if not GENERATED.match(n) and n not in MODELS
               and not (ROOT / n).exists()
               and not list(ROOT.glob(f"**/{n}"))]
    assert missing == []


def test_every_interp_claims_command_named_exists():
    from harness import cli

    commands = set(cli.TOOLS) | {"status", "plan"}
    assert [(d, c) for d, c in named(r"interp-claims ([a-z][\w-]*)") if c not in commands] == []
