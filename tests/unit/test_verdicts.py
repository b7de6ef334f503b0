"""harness.verdicts: how a pytest outcome and the reason it failed map to a verdict."""
from __future__ import annotations

from harness.verdicts import Failure, Verdict, verdict_for


def test_a_missed_known_answer_is_its_own_failing_verdict():
    verdict = verdict_for("failed", published_profile=False, failure=Failure.KNOWN_ANSWER)
    assert verdict is Verdict.KNOWN_ANSWER_MISSED and verdict.fails


def test_drift_alone_keeps_the_verdict_of_the_criterion():
    assert verdict_for("failed", published_profile=False,
                       failure=Failure.DRIFT) is Verdict.NOT_APPLICABLE


def test_a_pass_on_an_organism_is_never_replicated():
    assert verdict_for("passed", published_profile=False) is Verdict.NOT_APPLICABLE


def test_an_anchor_that_fails_its_criterion_says_the_machinery_failed():
    assert verdict_for("failed", published_profile=True, anchor=True) is Verdict.ANCHOR_FAILED


def test_a_crash_is_an_error():
    assert verdict_for("failed", published_profile=True, failure=Failure.CRASH) is Verdict.ERROR


def test_an_anchor_that_passes_on_an_organism_held():
    assert verdict_for("passed", published_profile=False, anchor=True) is Verdict.HELD


def test_a_study_that_recovers_its_planted_answer_reads_recovered():
    assert verdict_for("passed", published_profile=False, recovered=True) is Verdict.RECOVERED


def test_a_recovered_answer_never_reads_replicated_where_published_values_apply():
    assert verdict_for("passed", published_profile=True, recovered=True) is Verdict.REPLICATED


def test_a_skip_by_a_blocking_anchor_reads_blocked():
    assert verdict_for("skipped", skip_reason="blocked by cot.anchor (failed)",
                       published_profile=True) is Verdict.BLOCKED


def test_any_other_skip_reads_skipped():
    assert verdict_for("skipped", skip_reason="needs a GPU", published_profile=True) is \
        Verdict.SKIPPED
    assert verdict_for("skipped", published_profile=False) is Verdict.SKIPPED


def test_a_pass_where_published_values_apply_is_replicated():
    assert verdict_for("passed", published_profile=True) is Verdict.REPLICATED


def test_a_finding_that_fails_its_criterion_is_not_replicated():
    assert verdict_for("failed", published_profile=True) is Verdict.NOT_REPLICATED


def test_drift_alone_keeps_replicated_where_published_values_apply():
    assert verdict_for("failed", published_profile=True, failure=Failure.DRIFT) is \
        Verdict.REPLICATED


def test_drift_alone_on_an_anchor_keeps_held():
    assert verdict_for("failed", published_profile=False, failure=Failure.DRIFT, anchor=True) is \
        Verdict.HELD


def test_a_crash_on_an_anchor_is_an_error_not_broken_machinery():
    assert verdict_for("failed", published_profile=False, failure=Failure.CRASH, anchor=True) is \
        Verdict.ERROR


def test_a_pass_whose_criterion_accepts_the_null_is_inconclusive():
    assert verdict_for("passed", published_profile=True, accepts_null=True) is \
        Verdict.INCONCLUSIVE


def test_drift_alone_keeps_inconclusive():
    assert verdict_for("failed", published_profile=True, failure=Failure.DRIFT,
                       accepts_null=True) is Verdict.INCONCLUSIVE


def test_a_failure_whose_criterion_accepts_the_null_is_not_replicated():
    assert verdict_for("failed", published_profile=True, accepts_null=True) is \
        Verdict.NOT_REPLICATED


def test_an_organism_pass_accepting_the_null_stays_not_applicable():
    assert verdict_for("passed", published_profile=False, accepts_null=True) is \
        Verdict.NOT_APPLICABLE


def test_an_anchor_is_never_inconclusive():
    assert verdict_for("passed", published_profile=True, anchor=True, accepts_null=True) is \
        Verdict.REPLICATED


# verdict: (ran, fails, explained)
PROPERTIES = {
    Verdict.REPLICATED: (True, False, False),
    Verdict.INCONCLUSIVE: (True, False, True),
    Verdict.NOT_REPLICATED: (True, True, True),
    Verdict.ANCHOR_FAILED: (True, True, True),
    Verdict.HELD: (True, False, False),
    Verdict.RECOVERED: (True, False, False),
    Verdict.KNOWN_ANSWER_MISSED: (True, True, True),
    Verdict.BLOCKED: (False, False, True),
    Verdict.NOT_APPLICABLE: (True, False, False),
    Verdict.SKIPPED: (False, False, True),
    Verdict.ERROR: (False, True, True),
}


def test_every_verdict_says_whether_it_ran_fails_and_is_explained():
    assert set(PROPERTIES) == set(Verdict)
    assert {v: (v.ran, v.fails, v.explained) for v in Verdict} == PROPERTIES
