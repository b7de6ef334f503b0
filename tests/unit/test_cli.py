"""harness.cli: the interp-claims command's subcommands."""
from __future__ import annotations

import importlib.util
import json
import re

import pytest

from harness import cli
from tests.paths import ROOT
from tests.sample_results import results


@pytest.fixture
def record(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results()))
    return path


def test_status_prints_a_claims_verdict_drift_known_answer_and_message(record, capsys):
    assert cli.main(["status", "cot.full-corruption", "--results", str(record)]) == 0
    out = capsys.readouterr().out
    assert "verdict: blocked" in out and "drift:" in out and "known answer: none planted" in out
    assert "message: blocked by cot.verbatim-block-control" in out


def test_status_of_an_unknown_claim_says_how_to_run_it_and_fails(record, capsys):
    assert cli.main(["status", "cot.no-such-claim", "--results", str(record)]) == 2
    assert "pytest -k cot.no-such-claim" in capsys.readouterr().err


def test_an_unknown_command_fails_listing_the_commands(capsys):
    assert cli.main(["no-such-command"]) == 2
    assert "status CLAIM_ID" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(cli.TOOLS))
def test_every_command_runs_a_module_with_a_main(command):
    module = cli.TOOLS[command][0]
    if importlib.util.find_spec(module).submodule_search_locations is not None:
        module = f"{module}.__main__"
    assert callable(importlib.import_module(module).main)


def test_a_command_runs_its_tool_with_the_flags_given(record, tmp_path):
    assert cli.main(["diff", str(record), str(record)]) == 0


def test_every_make_target_runs_the_suites_tools_through_it():
    recipes = "\n".join(line for line in (ROOT / "Makefile").read_text().splitlines()
                        if line.startswith("\t"))
    assert re.findall(r"-m (harness\.(?!cli\b)[\w.]+)", recipes) == []


def recipes() -> dict[str, str]:
    """Each make target's recipe (the stamp rules by their file names)."""
    found: dict[str, list[str]] = {}
    target = None
    for line in (ROOT / "Makefile").read_text().splitlines():
        if (m := re.match(r"^([$()\w.-]+):", line)):
            target = m.group(1)
            found.setdefault(target, [])
        elif line.startswith("\t") and target:
            found[target].append(line)
    return {t: "\n".join(lines) for t, lines in found.items() if lines}


def test_every_make_target_calls_it_but_clean_which_only_removes_files():
    calls = ("$(CLI)", "-m harness.cli")
    assert sorted(t for t, r in recipes().items() if not any(c in r for c in calls)) == [
        "$(MUTATE_STAMP)", "clean"]  # a stamp that only installs a lock (on top of .venv's)
