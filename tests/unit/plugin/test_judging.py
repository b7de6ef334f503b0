"""A crash is never a verdict on the finding, in any phase: an exception in setup, in teardown,
or one the experiment raises in the call reads "error"; only the criterion gives a verdict (and an
anchor's own assertions, which check its machinery). A finding whose judge passed and whose
teardown then crashed reads "error", not "replicated": the run broke around it."""
from __future__ import annotations

from tests.unit.plugin.claim_runs import run, verdict

pytest_plugins = ["pytester"]


def one(kind: str, name: str, body: str, fixtures: str = "", declared: str = "") -> str:
    """A claim file of one test: `kind` ("finding" or "anchor") cot.<name> running `body`."""
    test = name.replace("-", "_")
    return (f'@{kind}("{name}"{declared})\ndef test_{test}(judge{fixtures}):\n'
            f'    judge({body})\n')


def test_an_assertion_in_a_fixtures_setup_is_an_error_never_not_replicated(pytester):
    body = one("finding", "setup-asserts", "measured(1)", ", setup_asserts")
    assert verdict(pytester, body, "cot.setup-asserts") == (
        "error", "AssertionError: the fixture's check")


def test_an_assertion_in_an_anchors_fixture_setup_is_an_error(pytester):
    body = one("anchor", "setup-asserts", "measured(1)", ", setup_asserts")
    assert verdict(pytester, body, "cot.setup-asserts") == (
        "error", "AssertionError: the fixture's check")


def test_a_crash_in_teardown_after_a_replicated_call_is_an_error(pytester):
    body = one("finding", "torn", "measured(1)", ", teardown_crashes")
    assert verdict(pytester, body, "cot.torn") == ("error", "RuntimeError: the fixture's teardown")


def test_a_crash_in_teardown_after_a_not_replicated_call_is_an_error(pytester):
    body = one("finding", "torn", "measured(2)", ", teardown_crashes")
    assert verdict(pytester, body, "cot.torn") == ("error", "RuntimeError: the fixture's teardown")


def test_a_crash_in_teardown_after_a_skip_is_an_error(pytester):
    body = one("finding", "torn", "skips()", ", teardown_crashes")
    assert verdict(pytester, body, "cot.torn") == ("error", "RuntimeError: the fixture's teardown")


def test_a_crash_in_setup_is_not_overwritten_by_one_in_teardown(pytester):
    body = one("finding", "both", "measured(1)", ", teardown_crashes, setup_asserts")
    assert verdict(pytester, body, "cot.both") == ("error", "AssertionError: the fixture's check")


def test_an_assertion_the_experiment_raises_in_a_finding_is_an_error(pytester):
    body = one("finding", "asserts", "asserts()")
    assert verdict(pytester, body, "cot.asserts") == (
        "error", "AssertionError: the experiment's own check")


def test_an_exception_the_experiment_raises_is_an_error(pytester):
    body = one("finding", "crashes", "crashes()")
    assert verdict(pytester, body, "cot.crashes") == ("error", "ValueError: the experiment broke")


def test_the_criterion_failing_is_not_replicated_naming_the_claim_and_the_check(pytester):
    body = one("finding", "differs", "measured(2)")
    assert verdict(pytester, body, "cot.differs") == (
        "not replicated", "cot.differs not replicated: v: measured 2, published 1")


def test_the_criterion_holding_is_replicated(pytester):
    assert verdict(pytester, one("finding", "same", "measured(1)"), "cot.same") == (
        "replicated", "")


def test_an_assertion_the_experiment_raises_in_an_anchor_is_an_error(pytester):
    """An anchor fails its check only through its judge (its criterion or holds)."""
    body = one("anchor", "asserts", "asserts()")
    assert verdict(pytester, body, "cot.asserts") == (
        "error", "AssertionError: the experiment's own check")


def test_an_anchor_failing_its_criterion_is_anchor_failed(pytester):
    body = one("anchor", "differs", "measured(2)")
    assert verdict(pytester, body, "cot.differs") == (
        "anchor failed", "cot.differs not replicated: v: measured 2, published 1")


def test_an_exception_in_an_anchor_is_an_error(pytester):
    body = one("anchor", "crashes", "crashes()")
    assert verdict(pytester, body, "cot.crashes") == ("error", "ValueError: the experiment broke")


def test_an_anchor_whose_teardown_crashed_blocks_what_requires_it(pytester):
    body = (one("anchor", "torn", "measured(1)", ", teardown_crashes")
            + one("finding", "after", "measured(1)", declared=', requires=["cot.torn"]'))
    assert verdict(pytester, body, "cot.after") == (
        "blocked", "blocked by cot.torn: RuntimeError: the fixture's teardown")


def test_a_finding_whose_anchor_held_is_judged(pytester):
    body = (one("anchor", "held", "measured(1)")
            + one("finding", "after", "measured(1)", declared=', requires=["cot.held"]'))
    assert verdict(pytester, body, "cot.after") == ("replicated", "")


TWO_LINES = '''
def two_lines() -> Value:
    raise AssertionError("the first line\\nand the second")


'''


def test_an_entry_keeps_the_first_line_of_its_message(pytester):
    body = TWO_LINES + one("anchor", "two-lines", "two_lines()")
    assert verdict(pytester, body, "cot.two-lines") == (
        "error", "AssertionError: the first line")


def test_a_blocked_finding_names_the_first_line_of_its_anchors_message(pytester):
    body = (TWO_LINES + one("anchor", "two-lines", "two_lines()")
            + one("finding", "after", "measured(1)", declared=', requires=["cot.two-lines"]'))
    assert verdict(pytester, body, "cot.after") == (
        "blocked", "blocked by cot.two-lines: AssertionError: the first line")


def test_a_skip_reads_skipped_with_its_reason(pytester):
    body = one("finding", "skips", "skips()")
    assert verdict(pytester, body, "cot.skips") == ("skipped", "no tokenizer here")


def test_a_finding_that_passes_where_it_was_declared_to_fail_is_an_error(pytester):
    body = '@pytest.mark.xfail(strict=True, reason="expected")\n' + one("finding", "xpasses",
                                                                        "measured(1)")
    assert verdict(pytester, body, "cot.xpasses") == ("error", "[XPASS(strict)] expected")


def test_judge_in_a_test_without_a_claim_is_a_usage_error(pytester):
    result = run(pytester, "def test_plain(judge):\n    pass\n", "--tb=short")
    result.stdout.fnmatch_lines(["*test_claims.py::test_plain uses judge but carries no @claim*"])
