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


# A module of the harness reads a source's module by name through Source.part (issue 46): an
# import no statement shows. Where the module read imports the reader back, the two form a cycle
# that only the lateness of the read keeps from failing. The ground floor, which every source
# imports to declare itself, is the door the others read through, so its own reads are not cycles.
GROUND_FLOOR = ("harness.source", "harness.registry")
# The modules that import others by name for a reason of their own (every other read of a module
# by name is a source's, through Source.part): the CLI's verbs, the plugin's lazy suite, the
# sensitivity table's claim files, the offline check's imports of each installed module.
IMPORT_BY_NAME = ("harness.source", "harness.registry", "harness.cli", "harness.plugin",
                  "harness.reporting.sensitivity_table", "harness.offline")


def module_names(root: Path) -> dict[str, Path]:
    """Every module under root/harness by its dotted name (a package by its own)."""
    found = {}
    for path in sorted((root / "harness").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


# Source's property that reads a part of the same name (Source.figures; Source.steps is not
# listed: `.steps` names the steps of other objects too, whose readers the sources import).
PART_PROPERTIES = ("figures",)


def parts_read(path: Path) -> set[str]:
    """The source modules the file reads through `.part(...)` (a SourcePart member or its value)
    or through the Source property that reads one (any `.figures`)."""
    from harness.source import SourcePart

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and node.attr in PART_PROPERTIES:
            found.add(node.attr)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "part" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Attribute) and arg.attr in SourcePart.__members__:
                found.add(SourcePart[arg.attr].value)
            elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
    return found


def imports_by_name(path: Path) -> bool:
    """Whether the file calls importlib.import_module or __import__."""
    return any(isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
        or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__")))
        for node in ast.walk(ast.parse(path.read_text())))


def reached(graph: dict[str, set[str]], start: str) -> dict[str, str | None]:
    """Every module `start` imports at any remove, each with the module it was reached from."""
    came_from: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        module = frontier.pop()
        for target in sorted(graph.get(module, ())):
            if target not in came_from:
                came_from[target] = module
                frontier.append(target)
    return came_from


def cycles_through_parts(root: Path) -> list[str]:
    """Each read of a source's module through Source.part, outside the ground floor and the
    sources, whose module imports the reader back, with the chain of imports that does."""
    modules = module_names(root)
    graph = {name: {m for m in imported(path) if m in modules} for name, path in modules.items()}
    found = []
    for reader, path in modules.items():
        if reader in GROUND_FLOOR or reader.startswith(f"{SOURCES_PACKAGE}."):
            continue
        for part in sorted(parts_read(path)):
            for target in (m for m in modules if m.startswith(f"{SOURCES_PACKAGE}.")
                           and m.count(".") == 3 and m.endswith(f".{part}")):
                came_from = reached(graph, target)
                if reader in came_from:
                    chain, at = [], reader
                    while at is not None:
                        chain.append(at)
                        at = came_from[at]
                    found.append(f"{reader} reads {target}, which imports it back: "
                                 f"{' -> '.join(reversed(chain))}")
    return found


def test_no_read_of_a_source_module_closes_an_import_cycle():
    assert cycles_through_parts(ROOT) == []


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


READER = "from harness.source import SourcePart\n\ndef f(src):\n    return src.part(SourcePart.BREAKAGES)\n"


def test_a_read_whose_module_imports_the_reader_back_is_found(tmp_path):
    root = _tree(tmp_path, {"harness/catalogue.py": READER,
                            "harness/sources/x/breakages.py": "from harness.edits import Edit\n",
                            "harness/edits.py": "from harness.catalogue import Edit\n"})
    assert cycles_through_parts(root) == [
        "harness.catalogue reads harness.sources.x.breakages, which imports it back: "
        "harness.sources.x.breakages -> harness.edits -> harness.catalogue"]


def test_a_read_whose_module_stays_beneath_the_reader_is_no_cycle(tmp_path):
    root = _tree(tmp_path, {"harness/catalogue.py": READER,
                            "harness/sources/x/breakages.py": "from harness.edits import Edit\n",
                            "harness/edits.py": "import json\n"})
    assert cycles_through_parts(root) == []


@pytest.mark.parametrize("read, part", [("src.part('plan')", "plan"),  # by the part's value
                                        ("src.figures", "figures")])  # Source's property
def test_a_read_by_the_parts_value_or_sources_property_is_found_too(tmp_path, read, part):
    root = _tree(tmp_path, {"harness/low.py": f"def f(src):\n    return {read}\n",
                            f"harness/sources/x/{part}.py": "import harness.low\n"})
    assert cycles_through_parts(root) == [
        f"harness.low reads harness.sources.x.{part}, which imports it back: "
        f"harness.sources.x.{part} -> harness.low"]


def test_only_the_declared_modules_import_by_name():
    assert [name for name, path in module_names(ROOT).items()
            if not name.startswith(f"{SOURCES_PACKAGE}.") and name not in IMPORT_BY_NAME
            and imports_by_name(path)] == []


def test_an_import_by_name_is_found(tmp_path):
    module = tmp_path / "reader.py"
    module.write_text("import importlib\n\ndef f(p):\n    return importlib.import_module(p + '.steps')\n")
    assert imports_by_name(module)
