"""make test runs one pytest process per tier; a test that starts another process (a pytest run,
the rehearsal, a probe) belongs to make test-meta (issue 27), but for the ones named here."""
from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

IN_MAKE_TEST = {
    "test_blocking_holds_under_xdist": "blocking under xdist is make test's own way of running, "
                                       "which no in-process run can show",
    "test_the_check_runs_on_qwens_filtered_main_set": "reads the hub tier's record in make test "
                                                      "(INTERP_CLAIMS_HUB), running only without it",
}
NOT_IN_MAKE_TEST = ("mark.meta", "mark.slow")


def _starts_a_process(call: ast.Call) -> bool:
    name = ast.unparse(call.func)
    return name.startswith("subprocess.") or name.endswith(("runpytest_subprocess", "Popen"))


def _marked(node: ast.AST) -> bool:
    return any(m in ast.unparse(node) for m in NOT_IN_MAKE_TEST)


def unmarked_process_tests(path: Path) -> list[str]:
    """The tests in `path` that start a process, themselves or through a function of the same
    module they call by name, and that neither they nor their module mark meta or slow."""
    tree = ast.parse(path.read_text())
    if any(isinstance(n, ast.Assign) and "pytestmark" in map(ast.unparse, n.targets)
           and _marked(n.value) for n in tree.body):
        return []
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def starts(fn: ast.FunctionDef, seen: frozenset[str]) -> bool:
        calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call)]
        called = {c.func.id for c in calls if isinstance(c.func, ast.Name)} & functions.keys()
        return (any(map(_starts_a_process, calls))
                or any(starts(functions[n], seen | {n}) for n in called - seen))

    return [f"{path.name}::{name}" for name, fn in functions.items()
            if name.startswith("test_") and name not in IN_MAKE_TEST
            and not any(map(_marked, fn.decorator_list)) and starts(fn, frozenset({name}))]


def test_every_test_that_starts_a_process_runs_in_make_test_meta():
    found = [t for path in sorted((ROOT / "tests").rglob("test_*.py"))
             for t in unmarked_process_tests(path)]
    assert found == []


def test_the_check_sees_a_process_started_through_a_helper(tmp_path):
    path = tmp_path / "test_example.py"
    path.write_text("import subprocess\n\ndef run():\n    subprocess.run(['true'])\n\n"
                    "def test_started():\n    run()\n\n"
                    "import pytest\n\n@pytest.mark.meta\ndef test_meta():\n    run()\n")
    assert unmarked_process_tests(path) == ["test_example.py::test_started"]
