"""Known answers: a mechanism an organism's construction planted, which its study must recover
(issue 29), on throw-away files against the heads organism's manifest."""
from __future__ import annotations

from tests.integration.plugin_runs import results

pytest_plugins = ["pytester"]


KNOWN = '''
from harness.claims import claim
from harness.criteria import KnownAnswer
from harness.criteria import Exact


@claim("heads.fake-transplant", kind="claim", section="2", statement="s",
       published={"retrieval_block": 31}, provenance="p", criterion=Exact("retrieval_block"),
       known_answer=KnownAnswer(Exact("retrieval_block"), planted="retrieval_block"))
def test_fake_transplant(judge):
    judge({"retrieval_block": BLOCK})
'''


def test_a_planted_mechanism_recovered_on_the_organism_reads_recovered(tester):
    tester.makepyfile(test_claims=KNOWN.replace("BLOCK", "1"))  # the heads manifest plants 1
    tester.runpytest("--snapshot-update").assert_outcomes(passed=1)
    entry = results(tester)["tests"][0]
    assert entry["verdict"] == "recovered"
    assert entry["known_answer"] == {"planted": {"retrieval_block": 1}, "outcome": "recovered",
                                     "detail": "retrieval_block: measured 1, published 1"}


def test_a_missed_planted_mechanism_fails_with_its_own_verdict_and_message(tester):
    tester.makepyfile(test_claims=KNOWN.replace("BLOCK", "2"))
    result = tester.runpytest("--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*known answers: 0 recovered, 1 missed (heads.fake-transplant)*"])
    entry = results(tester)["tests"][0]
    assert entry["verdict"] == "missed" and entry["known_answer"]["outcome"] == "missed"
    assert "heads.fake-transplant missed the organism's planted" in entry["message"]


def test_a_manifest_without_the_planted_key_is_an_error_naming_the_rebuild(tester):
    tester.makepyfile(test_claims=KNOWN.replace("BLOCK", "1").replace(
        'planted="retrieval_block"', 'planted="no_such_mechanism"'))
    result = tester.runpytest("--snapshot-update")
    result.assert_outcomes(failed=1)
    entry = results(tester)["tests"][0]
    assert entry["verdict"] == "error" and "interp-claims organisms heads" in entry["message"]
