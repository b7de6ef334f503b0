"""harness.plugin.guards in a pytest run: throw-away claims in a `claims/patching/` folder, which
reads seed 004's declared steps, blocked by the anchors guarding the steps they read, and the
declarations' faults stopping the run at collection (pytester, in-process)."""
from __future__ import annotations

import json
from typing import Any

import hypothesis  # noqa: F401 (what a run imports is imported here once, not by each run)
import pytest

import harness.plugin.suite  # noqa: F401
import harness.reporting.report  # noqa: F401
import harness.sources.patching.steps  # noqa: F401

pytest_plugins = ["pytester"]

HEADER = '''
from typing import TypedDict

from harness.claims import claim
from harness.criteria import Exact


class Value(TypedDict):
    v: int


def broken() -> Value:
    raise AssertionError("the machinery is broken")


def anchor(name, **extra):
    return claim(f"patching.{name}", kind="anchor", section="1", needs="cpu", statement="s",
                 published={"v": 1}, provenance="p", criterion=Exact("v"), **extra)


def finding(name, **extra):
    return claim(f"patching.{name}", kind="measurement", section="1", needs="cpu",
                 statement="s", published={"v": 1}, provenance="p", criterion=Exact("v"), **extra)
'''

FAILS = '''
@anchor("fails", guards=GUARDED)
def test_fails(judge):
    judge(broken())
'''

HOLDS_THE_LAYER = '''
@anchor("holds", guards=("patch_layer",))
def test_holds(judge):
    judge({"v": 1})
'''

PLAIN = '''
def test_plain():
    """A test beside the claims that is none."""
'''

READS_THE_LAYER = '''
@finding("reads-the-layer")
def test_reads_the_layer(judge, patch_layer):
    judge({"v": 1})
'''


def write(tester: pytest.Pytester, **files: str) -> None:
    """claims/patching/<name>.py for each file, after the header."""
    tester.makeini("[pytest]\naddopts = -p no:cacheprovider --claims-profile=tiny\n")
    folder = tester.path / "claims" / "patching"
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        (folder / f"{name}.py").write_text(HEADER + body)


def record(tester: pytest.Pytester, *args: str) -> dict[str, dict[str, Any]]:
    """Each test's entry in the record of a run of `args`, by claim id."""
    tester.runpytest("--snapshot-update", *args)
    data = json.loads((tester.path / "reports" / "results.json").read_text())
    return {t["id"]: t for t in data["tests"]}


def collection_error(tester: pytest.Pytester) -> str:
    """What stopped a collection, which must stop it."""
    result = tester.runpytest("--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    return result.stderr.str()


def test_a_finding_is_blocked_by_an_anchor_guarding_a_step_it_reads(pytester):
    write(pytester, test_claims='GUARDED = ("patch_layer",)\n' + FAILS + READS_THE_LAYER)
    found = record(pytester)["patching.reads-the-layer"]
    assert (found["verdict"], found["message"], found["requires"]) == (
        "blocked", "blocked by patching.fails: AssertionError: the machinery is broken",
        ["patching.fails"])


def test_a_finding_is_blocked_by_an_anchor_guarding_a_step_upstream(pytester):
    write(pytester, test_claims='GUARDED = ("seed_pair",)\n' + FAILS + '''
@anchor("holds", guards=("seed_runs", "seed_sweep"))
def test_holds(judge):
    judge({"v": 1})

@finding("reads-the-sweep")
def test_reads_the_sweep(judge, seed_sweep):
    judge({"v": 1})
''')
    found = record(pytester)["patching.reads-the-sweep"]
    assert (found["verdict"], found["message"]) == (
        "blocked", "blocked by patching.fails: AssertionError: the machinery is broken")


def test_an_anchor_guarding_an_unrelated_step_does_not_block(pytester):
    """The layer is declared unguarded (a datum of the sizes): no anchor need guard it."""
    write(pytester, test_claims='GUARDED = ("ioi_pair",)\n' + FAILS + READS_THE_LAYER)
    found = record(pytester)["patching.reads-the-layer"]
    assert (found["verdict"], found["requires"]) == ("replicated", [])


def test_a_file_selection_still_requires_the_anchors_of_its_folders_other_files(pytester):
    write(pytester, test_anchors='GUARDED = ("patch_layer",)\n' + FAILS + PLAIN,
          test_holds=HOLDS_THE_LAYER, test_findings=READS_THE_LAYER)
    found = record(pytester, "claims/patching/test_findings.py")["patching.reads-the-layer"]
    assert (found["verdict"], found["message"], found["requires"]) == (
        "blocked", "blocked by patching.fails: the anchor was not run in this session",
        ["patching.fails", "patching.holds"])


def test_a_file_selection_outside_a_claims_folder_still_knows_its_neighbours(pytester):
    """The anchor its finding names by hand is in another file of the folder: not unknown."""
    write(pytester)
    pytester.makepyfile(test_anchors=HEADER + 'GUARDED = ()\n' + FAILS, test_findings=HEADER + '''
@finding("names-it", requires=["patching.fails"])
def test_names_it(judge):
    judge({"v": 1})
''')
    found = record(pytester, "test_findings.py")["patching.names-it"]
    assert (found["verdict"], found["message"]) == (
        "blocked", "blocked by patching.fails: the anchor was not run in this session")


def test_a_finding_reading_a_step_no_anchor_guards_stops_the_collection(pytester):
    write(pytester, test_claims='''
@finding("reads-the-pair")
def test_reads_the_pair(judge, seed_pair):
    judge({"v": 1})
''')
    assert ("patching.reads-the-pair reads step 'seed_pair', which no anchor guards"
            in collection_error(pytester))


def test_an_unknown_guarded_step_stops_the_collection(pytester):
    write(pytester, test_claims='GUARDED = ("seed_sweeps",)\n' + FAILS)
    assert ("patching.fails guards 'seed_sweeps', which is no declared step of source 'patching'"
            in collection_error(pytester))


def test_every_fault_is_named_under_one_heading(pytester):
    write(pytester, test_claims='GUARDED = ("seed_sweeps",)\n' + FAILS + '''
@finding("requires-a-typo", requires=["patching.fial"])
def test_requires_a_typo(judge):
    judge({"v": 1})
''')
    assert collection_error(pytester).splitlines() == [
        "ERROR: claims whose requires cannot be derived (harness/plugin/guards.py):",
        "  patching.fails guards 'seed_sweeps', which is no declared step of source 'patching' "
        "(harness/sources/patching/steps.py)",
        "  patching.requires-a-typo requires 'patching.fial', which is no claim of its source"]


def test_an_unknown_required_id_stops_the_collection(pytester):
    write(pytester, test_claims='''
@finding("requires-a-typo", requires=["patching.fial"])
def test_requires_a_typo(judge):
    judge({"v": 1})
''')
    assert ("patching.requires-a-typo requires 'patching.fial', which is no claim of its source"
            in collection_error(pytester))


def test_an_anchor_left_out_by_k_is_still_known(pytester):
    write(pytester, test_claims='''
@anchor("base")
def test_base(judge):
    judge({"v": 1})

@finding("on-top", requires=["patching.base"])
def test_on_top(judge):
    judge({"v": 1})
''')
    assert record(pytester, "-k", "on_top")["patching.on-top"]["verdict"] == "replicated"


def test_anchors_requiring_each_other_stop_the_collection(pytester):
    write(pytester, test_claims='''
@anchor("first", guards=("seed_pair",))
def test_first(judge, seed_runs):
    judge({"v": 1})

@anchor("second", guards=("seed_runs",))
def test_second(judge, seed_pair):
    judge({"v": 1})
''')
    assert ("anchors require each other in a cycle: patching.first -> patching.second -> "
            "patching.first" in collection_error(pytester))
