"""An anchor's declared Holds, and rows forced past a behavioural filter, on throw-away files."""
from __future__ import annotations

import shutil

import pytest

from tests.integration.plugin_runs import results, verdicts
from tests.paths import SHARED_CACHE

pytest_plugins = ["pytester"]

HOLDS = '''
import pytest
from harness.claims import Holds, claim
from harness.criteria import Every, Exact
from harness.plugin.forcing import passed_or_forced


@pytest.fixture
def kept_rows(request):
    return passed_or_forced(request, [], [10, 11, 12], "the model answered none of them")


@claim("cot.fake-control", kind="anchor", section="4", statement="s",
       published={"correct": 20, "n": 20}, provenance="p", criterion=Every("correct"),
       holds=Holds(Every("correct"), behavioural=True))
def test_fake_control(judge, kept_rows):
    judge({"correct": 0, "n": len(kept_rows)})


@claim("cot.fake-identity", kind="anchor", section="6", statement="s",
       published={"identical": True}, provenance="p", criterion=Exact("identical"),
       holds=Holds(Exact("identical")))
def test_fake_identity(judge, kept_rows):
    judge({"identical": False})


@claim("cot.fake-finding", kind="claim", section="7", statement="s", published={"v": 1},
       provenance="p", criterion=Exact("v"), requires=["cot.fake-identity"])
def test_fake_finding(judge):
    judge({"v": 1})
'''


def test_a_failed_holds_fails_its_anchor_and_blocks_what_requires_it(tester):
    tester.makepyfile(test_claims=HOLDS.replace("[], [10, 11, 12]", "[1, 2], []"))
    tester.runpytest("--snapshot-update")
    found = verdicts(tester)
    assert found["cot.fake-identity"][0] == "anchor failed"
    assert "does not hold: identical: measured False, published True" in found["cot.fake-identity"][1]
    assert found["cot.fake-control"][0] == "anchor failed"
    assert found["cot.fake-finding"][0] == "blocked"


def test_without_forced_rows_an_empty_filter_skips_saying_why(tester):
    tester.makepyfile(test_claims=HOLDS)
    tester.runpytest("--snapshot-update")
    assert verdicts(tester)["cot.fake-control"] == ("skipped", "the model answered none of them")


@pytest.mark.meta  # a process of its own: make test-meta
def test_the_rehearsal_forces_its_declared_rows_and_labels_each_test_that_reads_them(tester,
                                                                                   monkeypatch):
    cache = tester.path / "hf"  # the published files, and a stand-in weights file the
    shutil.copytree(SHARED_CACHE, cache)  # profile's check finds (these tests load no model)
    for snapshot in (cache / "hub").glob("models--Qwen--Qwen3-4B*/snapshots/*"):
        (snapshot / "model.safetensors").touch()
    monkeypatch.setenv("HF_HOME", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tester.makepyfile(test_claims=HOLDS)
    tester.runpytest_subprocess("--claims-profile=rehearsal")  # the hub reads HF_HOME at import
    entries = {t["id"]: t for t in results(tester)["tests"]}
    control, identity = entries["cot.fake-control"], entries["cot.fake-identity"]
    assert control["measured"]["n"] == 2  # the rehearsal profile's forced_rows, first ones
    assert control["forced"] and "the first 2 of 3 taken as if they had passed" in control["forced"][0]
    assert control["verdict"] == "not applicable" and control["holds_check"]["ok"] is None
    assert identity["verdict"] == "anchor failed"  # a mechanical holds is judged on forced rows
    assert entries["cot.fake-finding"]["forced"] is None


WHERE_PUBLISHED_APPLIES = '''
from harness.claims import Holds, claim
from harness.criteria import Every, Exact


@claim("cot.fake-behaviour", kind="anchor", section="4", needs="cpu", statement="s",
       published={"correct": 20, "n": 20}, provenance="p", criterion=Every("correct", slack=1),
       holds=Holds(Every("correct"), behavioural=True))
def test_fake_behaviour(judge):
    judge({"correct": 19, "n": 20})


@claim("cot.fake-machinery", kind="anchor", section="6", needs="cpu", statement="s",
       published={"identical": 2}, provenance="p", criterion=Exact("identical"),
       holds=Holds(Every("identical")))
def test_fake_machinery(judge):
    judge({"identical": 2, "n": 3})
'''


def test_where_published_values_apply_only_a_mechanical_holds_is_judged_beside_them(tester):
    tester.makepyfile(test_claims=WHERE_PUBLISHED_APPLIES)  # needs="cpu": published everywhere
    tester.runpytest("--snapshot-update")
    entries = {t["id"]: t for t in results(tester)["tests"]}
    behaviour, machinery = entries["cot.fake-behaviour"], entries["cot.fake-machinery"]
    assert behaviour["verdict"] == "replicated" and behaviour["holds_check"]["ok"] is None
    assert machinery["criterion_check"]["ok"] and machinery["verdict"] == "anchor failed"

