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


# A source's reference (issue 49) is the notebook's procedure written again: of its source it
# reads the task data and its other reference parts alone; of the harness, the model loader and
# the comparison's engine.
REFERENCES = sorted(ROOT.glob("harness/sources/*/reference*.py"))  # reference.py, reference_<part>.py
REFERENCE_MAY_IMPORT = ("harness.models", "harness.reference", "harness.private")


def reference_imports_beyond_its_task(path: Path) -> list[str]:
    """The harness modules a source's reference imports other than its task data, its other
    reference parts (reference_<part>.py), the model loader and the comparison engine."""
    source = f"{SOURCES_PACKAGE}.{path.parent.name}"
    allowed = (f"{source}.task", *REFERENCE_MAY_IMPORT)
    return sorted(m for m in imported(path) if (m == "harness" or m.startswith("harness."))
                  and not any(m == a or m.startswith(f"{a}.") for a in allowed)
                  and not m.startswith(f"{source}.reference"))


@pytest.mark.parametrize("path", REFERENCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_reference_imports_only_its_task_and_the_loader(path):
    assert reference_imports_beyond_its_task(path) == []


def test_a_reference_importing_its_study_is_found(tmp_path):
    module = tmp_path / "patching" / "reference.py"
    module.parent.mkdir()
    module.write_text("from harness.sources.patching.task import PAIRS\n"
                      "from harness.sources.patching import experiments\n"
                      "from harness.models.loaded import Loaded\n")
    assert reference_imports_beyond_its_task(module) == ["harness.sources.patching",
                                                         "harness.sources.patching.experiments"]


def test_a_reference_may_read_its_own_other_parts_but_no_other_source(tmp_path):
    module = tmp_path / "cot" / "reference_patching.py"
    module.parent.mkdir()
    module.write_text("from harness.sources.cot.reference_plain import greedy\n"
                      "from harness.sources.patching.reference import sweep\n"
                      "from harness.sources.cot.readback import redraw\n")
    assert reference_imports_beyond_its_task(module) == [
        "harness.sources.cot.readback", "harness.sources.cot.readback.redraw",
        "harness.sources.patching.reference", "harness.sources.patching.reference.sweep"]
