"""Blocking, on throw-away claim files run in-process: a finding is blocked when an anchor it
requires failed, was skipped, crashed, is blocked itself, or did not run in the session; anchors
run first, deepest first, and an anchor that -k left out is brought back."""
from __future__ import annotations

import json
from typing import Any

import pytest

from harness.models import resources
from tests.unit.plugin.claim_runs import HEADER, INI, entries

pytest_plugins = ["pytester"]

FAILS = '''
@anchor("machinery")
def test_machinery(judge):
    judge(asserts())


@finding("reads-the-machinery", requires=["cot.machinery"])
def test_reads_the_machinery(judge):
    judge({"v": 2})
'''


def test_a_failed_anchor_blocks_its_finding(pytester):
    found = entries(pytester, FAILS)["cot.reads-the-machinery"]
    assert (found["verdict"], found["message"]) == (
        "blocked", "blocked by cot.machinery: AssertionError: the experiment's own check")


def test_a_blocked_finding_does_not_run(pytester):
    """Its measurement would not replicate; blocked, it reads neither that nor an error."""
    found = entries(pytester, FAILS)["cot.reads-the-machinery"]
    assert (found["outcome"], found["measured"]) == ("skipped", None)


def test_an_anchor_skipped_in_its_body_blocks_its_finding(pytester):
    body = '''
def prompts() -> Value:
    pytest.skip("the prompts file is not here")


@anchor("needs-a-file")
def test_needs_a_file(judge):
    judge(prompts())


@finding("reads-the-file", requires=["cot.needs-a-file"])
def test_reads_the_file(judge):
    judge({"v": 1})
'''
    found = entries(pytester, body)["cot.reads-the-file"]
    assert (found["verdict"], found["message"]) == (
        "blocked", "blocked by cot.needs-a-file: the prompts file is not here")


def test_an_anchor_without_its_resources_blocks_a_finding_that_has_them(pytester, monkeypatch):
    monkeypatch.setattr(resources, "cuda_reason", lambda: "no CUDA device")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    body = '''
@claim("cot.on-the-gpu", kind="anchor", section="1", needs="gpu", statement="s", published={},
       provenance="p", criterion=Exact("v"))
def test_on_the_gpu(judge):
    judge({"v": 1})


@finding("model-free", requires=["cot.on-the-gpu"])
def test_model_free(judge):
    judge({"v": 1})
'''
    found = entries(pytester, body, "--claims-profile=published")
    assert found["cot.on-the-gpu"]["verdict"] == "skipped"
    assert (found["cot.model-free"]["verdict"], found["cot.model-free"]["message"]) == (
        "blocked", "blocked by cot.on-the-gpu: no CUDA device")


def test_an_anchor_that_crashed_in_setup_blocks_its_finding(pytester):
    body = '''
@pytest.fixture
def model():
    raise RuntimeError("the model did not load")


@anchor("loads")
def test_loads(judge, model):
    judge({"v": 1})


@finding("reads-the-model", requires=["cot.loads"])
def test_reads_the_model(judge):
    judge({"v": 1})
'''
    found = entries(pytester, body)
    assert found["cot.loads"]["verdict"] == "error"
    assert (found["cot.reads-the-model"]["verdict"], found["cot.reads-the-model"]["message"]) == (
        "blocked", "blocked by cot.loads: RuntimeError: the model did not load")


CHAIN = '''
@finding("on-top", requires=["cot.upper"])
def test_on_top(judge):
    judge({"v": 1})


@anchor("upper", requires=["cot.base"])
def test_upper(judge):
    judge({"v": 1})


@anchor("base")
def test_base(judge):
    judge(asserts())
'''


def test_an_anchor_blocked_by_another_blocks_its_finding_naming_the_chain(pytester):
    found = entries(pytester, CHAIN)
    assert found["cot.upper"]["verdict"] == "blocked"
    assert (found["cot.on-top"]["verdict"], found["cot.on-top"]["message"]) == (
        "blocked", "blocked by cot.upper: blocked by cot.base: AssertionError: the experiment's "
                   "own check")


def test_a_passing_anchor_lets_its_finding_run(pytester):
    body = FAILS.replace("judge(asserts())", 'judge({"v": 1})').replace('{"v": 2}', '{"v": 1}')
    found = entries(pytester, body)["cot.reads-the-machinery"]
    assert (found["verdict"], found["message"]) == ("replicated", "")


def test_an_anchor_left_out_by_k_is_brought_back_and_run(pytester):
    found = entries(pytester, FAILS, "-k", "reads_the_machinery")
    assert found["cot.machinery"]["verdict"] == "error"
    assert found["cot.reads-the-machinery"]["verdict"] == "blocked"


ON_THE_MACHINERY = '''
@anchor("on-the-machinery", requires=["cot.machinery"])
def test_on_the_machinery(judge):
    judge({"v": 1})
'''


def test_an_anchor_not_run_in_the_session_blocks_what_requires_it(pytester):
    """Its file was not selected: a finding and an anchor that require it run, blocked."""
    folder = pytester.mkdir("claims") / "cot"
    folder.mkdir()
    anchors, findings = FAILS.split("@finding")
    (folder / "test_anchors.py").write_text(HEADER + anchors)
    (folder / "test_findings.py").write_text(HEADER + ON_THE_MACHINERY + "@finding" + findings)
    pytester.makeini(INI)
    pytester.runpytest("--snapshot-update", "claims/cot/test_findings.py")
    blocked = ("blocked", "blocked by cot.machinery: the anchor was not run in this session")
    assert {i: (e["verdict"], e["message"]) for i, e in _record(pytester).items()} == {
        "cot.on-the-machinery": blocked, "cot.reads-the-machinery": blocked}


ORDER_A = '''
def test_plain():
    pass


@finding("free")
def test_free(judge):
    judge({"v": 1})


@finding("on-top", requires=["cot.upper"])
def test_on_top(judge):
    judge({"v": 1})


def test_tail():
    pass
'''

ORDER_B = '''
def test_plain():
    pass


@anchor("upper", requires=["cot.middle", "cot.side"])
def test_upper(judge):
    judge({"v": 1})


@anchor("middle", requires=["cot.base"])
def test_middle(judge):
    judge({"v": 1})


@anchor("base")
def test_base(judge):
    judge({"v": 1})


@anchor("side")
def test_side(judge):
    judge({"v": 1})
'''


def _collected(pytester: pytest.Pytester) -> list[str]:
    """The order of the tests of test_a.py (ORDER_A) and test_b.py (ORDER_B) as collected."""
    pytester.makeini(INI)
    pytester.makepyfile(test_a=HEADER + ORDER_A, test_b=HEADER + ORDER_B)
    result = pytester.runpytest("--collect-only", "-q")
    return [line for line in result.outlines if "::" in line]


def test_anchors_run_before_findings_deepest_first(pytester):
    claims = [t for t in _collected(pytester) if "plain" not in t and "tail" not in t]
    assert claims == ["test_b.py::test_base", "test_b.py::test_side", "test_b.py::test_middle",
                      "test_b.py::test_upper", "test_a.py::test_free", "test_a.py::test_on_top"]


def test_a_sources_claims_run_together_beside_each_files_plain_tests(pytester):
    assert _collected(pytester) == [
        "test_a.py::test_plain", "test_a.py::test_tail", "test_b.py::test_base",
        "test_b.py::test_side", "test_b.py::test_middle", "test_b.py::test_upper",
        "test_a.py::test_free", "test_a.py::test_on_top", "test_b.py::test_plain"]


def _record(pytester: pytest.Pytester) -> dict[str, dict[str, Any]]:
    data = json.loads((pytester.path / "reports" / "results.json").read_text())
    return {t["id"]: t for t in data["tests"]}
