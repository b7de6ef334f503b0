"""No import runs back up into the sources (issue 38): the registry's modules and the packages
beneath the sources (cost/, organisms/, models/) import nothing from harness/sources/, which they
reach through harness.registry."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.paths import ROOT

SOURCES_PACKAGE = "harness.sources"
BENEATH = ["harness/cost", "harness/organisms", "harness/models", "harness/registry.py",
           "harness/source.py", "harness/profiles.py"]
MODULES = sorted(p for place in BENEATH for p in
                 ([ROOT / place] if place.endswith(".py") else (ROOT / place).rglob("*.py")))


def imported(path: Path) -> set[str]:
    """Every module an import statement in the file names, at any depth (`from a import b`
    names a and a.b)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def sources_imported(path: Path) -> list[str]:
    return sorted(m for m in imported(path)
                  if m == SOURCES_PACKAGE or m.startswith(f"{SOURCES_PACKAGE}."))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_module_imports_no_source(path):
    assert sources_imported(path) == []


def test_an_import_of_the_sources_is_found_at_any_depth(tmp_path):
    module = tmp_path / "upward.py"
    module.write_text("def f():\n    from harness import sources\n"
                      "    import harness.sources.cot.task\n")
    assert sources_imported(module) == ["harness.sources", "harness.sources.cot.task"]
