"""Drift from a pinned snapshot, judged in a pytest run: a fact of its own, never the verdict; on
the organisms it fails the test, on the published profile only with --fail-on-drift; and the
published profile judges no known answer (its models plant nothing)."""
from __future__ import annotations

import json

from harness.snapshots import snapshot_payload
from tests.unit.plugin.claim_runs import entries, pin, run

pytest_plugins = ["pytester"]

DRIFTS = '''
@finding("drifts")
def test_drifts(judge):
    judge(measured(1))
'''


def drifted(tester, body: str, claim_id: str, *args: str, pinned_in: str = "tiny") -> dict:
    """The entry of `claim_id` in a run given `args`, pinned at v = 3 in snapshots/<pinned_in>/."""
    pin(tester, pinned_in, claim_id, {"v": 3})
    return entries(tester, body, "--no-update", *args)[claim_id]


def test_drift_on_the_organisms_fails_the_test_and_keeps_the_verdict(pytester):
    entry = drifted(pytester, DRIFTS, "cot.drifts")
    assert (entry["verdict"], entry["outcome"], entry["drift"], entry["drift_detail"]) == (
        "replicated", "failed", "drifted", [".v: pinned 3, measured 1"])


def test_drift_is_said_where_the_verdict_says_nothing(pytester):
    body = '@finding("of-the-model", needs="gpu")\ndef test_of_the_model(judge):\n' \
           '    judge(measured(1))\n'
    entry = drifted(pytester, body, "cot.of-the-model")
    assert entry["verdict"] == "not applicable"
    assert entry["message"].startswith("cot.of-the-model: drifted from its snapshot")


def test_a_finding_not_replicated_and_drifted_is_not_replicated(pytester):
    body = '@finding("differs")\ndef test_differs(judge):\n    judge(measured(2))\n'
    assert drifted(pytester, body, "cot.differs")["verdict"] == "not replicated"


def test_a_float_within_the_organisms_tolerance_of_its_pin_has_not_drifted(pytester):
    body = ('@finding("near", needs="gpu")\ndef test_near(judge):\n'
            '    judge(measured(0.5 + 1e-7))\n')
    pin(pytester, "tiny", "cot.near", {"v": 0.5})
    entry = entries(pytester, body, "--no-update")["cot.near"]
    assert (entry["outcome"], entry["snapshot"], entry["drift"]) == ("passed", "within tolerance",
                                                                    "no drift")


def test_a_pin_names_its_claim_and_profile(pytester):
    run(pytester, DRIFTS)
    pinned = pytester.path / "snapshots" / "tiny" / "cot" / "test_drifts.json"
    assert json.loads(pinned.read_text()) == snapshot_payload("cot.drifts", "tiny", {"v": 1})


def test_a_missing_pin_fails_on_the_organisms(pytester):
    entry = entries(pytester, DRIFTS, "--no-update")["cot.drifts"]
    assert (entry["outcome"], entry["snapshot"], entry["drift"]) == ("failed", "new", "unpinned")


def test_drift_on_the_published_profile_is_shown_and_passes(pytester):
    entry = drifted(pytester, DRIFTS, "cot.drifts", "--claims-profile=published",
                    pinned_in="published")
    assert (entry["verdict"], entry["outcome"], entry["drift"]) == ("replicated", "passed",
                                                                    "drifted")


def test_drift_on_the_published_profile_fails_with_fail_on_drift(pytester):
    entry = drifted(pytester, DRIFTS, "cot.drifts", "--claims-profile=published",
                    "--fail-on-drift", pinned_in="published")
    assert (entry["verdict"], entry["outcome"], entry["drift"]) == ("replicated", "failed",
                                                                    "drifted")


def test_fast_mode_on_the_published_profile_compares_with_its_own_pins(pytester):
    entry = drifted(pytester, DRIFTS, "cot.drifts", "--claims-profile=published", "--mode=fast",
                    pinned_in="published-fast")
    assert entry["drift"] == "drifted"


def test_the_published_profile_compares_within_the_claims_own_tolerance(pytester):
    entry = entries(pytester, DRIFTS, "--claims-profile=published")["cot.drifts"]
    assert entry["tolerance"]["why"] == "declared by the claim for the published profile"


def test_the_published_profile_judges_no_known_answer(pytester):
    body = ('@finding("s", source="heads", known_answer=KnownAnswer(IsPlanted("v", '
            '"retrieval_block"), "retrieval_block"))\ndef test_s(judge):\n    judge(measured(2))\n')
    entry = entries(pytester, body, "--claims-profile=published")["heads.s"]
    assert (entry["verdict"], entry["known_answer"]) == ("not replicated", None)
