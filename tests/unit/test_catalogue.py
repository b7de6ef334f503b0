"""harness.catalogue on a throw-away source package: what counts as caught, a declared crash, the
null edit and a source found through the registry's declaration rather than its folder."""
from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from harness import catalogue
from harness.anchor_checks import Checks
from harness.breakage_edit import Breakage
from harness.source import Source

BREAKAGES = '''
from harness.breakage_edit import Breakage

M = "{package}.double"
BREAKAGES = (
    Breakage("doubles into a triple", "wrong value", M, "return 2 * x", "return 3 * x"),
    Breakage("divides by zero", "crash", M, "return 2 * x", "return x / 0"),
    Breakage("divides by zero, declared", "crash", M, "return 2 * x", "return x / 0",
             crashes=True),
)
'''


def doubling(package: str, log: Path) -> Callable[[], Checks]:
    """The fake source's one check, on its `double` module as imported when the checks are made,
    each run logged."""
    def checks() -> Checks:
        double = importlib.import_module(f"{package}.double")

        def doubles() -> list[str]:
            with log.open("a") as out:
                out.write("checked\n")
            return [] if double.twice(2) == 4 else [f"twice(2) is {double.twice(2)}"]
        return {"doubles": doubles}
    return checks


@pytest.fixture
def twice() -> str:
    """The fake source's code: right."""
    return "return 2 * x"


@pytest.fixture
def fake_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, twice: str) -> Source:
    package = f"fake_catalogue_{tmp_path.name.replace('-', '_')}"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "double.py").write_text(f"def twice(x):\n    {twice}\n")
    (folder / "breakages.py").write_text(textwrap.dedent(BREAKAGES.format(package=package)))
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__(package)
    yield Source(name="fake", package=package, seed_file="none", title="fake", models={})
    for name in [k for k in sys.modules if k.startswith(package)]:
        del sys.modules[name]


@pytest.fixture
def record(fake_source: Source, tmp_path: Path) -> dict:
    checks = doubling(fake_source.package, tmp_path / "checks.log")
    return catalogue.readout(catalogue.run(fake_source, checks))


def test_a_check_that_reports_a_failure_catches_the_breakage_with_its_message(record):
    assert record["outcomes"]["doubles into a triple"] == {
        "outcome": "caught", "check": "doubles", "message": "twice(2) is 6"}


def test_an_undeclared_crash_is_recorded_as_a_crash_and_missed(record):
    assert record["outcomes"]["divides by zero"]["outcome"] == "crashed (undeclared)"
    assert "ZeroDivisionError" in record["outcomes"]["divides by zero"]["message"]
    assert record["missed"] == ["divides by zero"]


def test_a_declared_crash_counts_as_caught(record):
    assert record["outcomes"]["divides by zero, declared"]["outcome"] == "crashed (declared)"
    assert record["caught"] == 2


def test_the_null_edit_through_the_same_copy_fails_no_check(record, fake_source):
    assert record["null_edit_failures"] == {}
    assert record["null_edit_module"] == f"{fake_source.package}.double"


def test_where_the_null_edit_holds_the_unbroken_code_is_not_checked_again(record, tmp_path):
    # once under the null edit, once per breakage (the first two caught, the third crashing)
    assert record["clean_failures"] == {}
    assert (tmp_path / "checks.log").read_text().count("checked") == 4


@pytest.mark.parametrize("twice", ["return 2 * x + 1"])
def test_where_the_null_edit_fails_the_unbroken_code_is_checked_apart(record):
    assert record["null_edit_failures"] == {"doubles": "twice(2) is 5"}
    assert record["clean_failures"] == {"doubles": "twice(2) is 5"}


def test_a_null_breakage_leaves_the_text_as_it_was():
    b = Breakage("b", "k", "m", "old", "new")
    assert (b.null().old, b.null().new) == ("old", "old")
