"""What the terminal says of a run record (one line a claim, a partial run said first), the
profile's banner, and the schema check of a results.json document."""
from __future__ import annotations

from harness.reporting.record import ENTRY_KEYS, RunRecord, validate
from harness.reporting.terminal import banner, status_table
from tests.sample_results import entry, record


def table(tests: list[dict], **run) -> list[str]:
    data = record(tests)
    data["run"].update(run)
    return status_table(RunRecord.from_json(data))


def test_the_organisms_banner_says_why_no_verdict_is_replicated():
    assert banner(RunRecord.from_json(record([]))).startswith(
        "tiny profile: published values are for the notebooks' models, so none applies here; an "
        "anchor whose checks held reads \"held\", a study reads \"recovered\" or \"missed\"")


def test_the_published_profile_and_a_record_without_one_have_no_banner():
    assert banner(RunRecord.from_json(record([], profile="published"))) is None
    assert banner(RunRecord.from_json({})) is None


def test_the_table_opens_with_the_banner_and_closes_with_the_counts():
    lines = table([entry("cot.a", "claim", "replicated"), entry("cot.b", "claim", "blocked")])
    assert (lines[0], lines[-1]) == (banner(RunRecord.from_json(record([]))),
                                     "claims: 1 blocked, 1 replicated (profile tiny)")


def test_a_run_that_ran_nothing_says_so():
    assert status_table(RunRecord.from_json(record([], profile="published"))) == [
        "claims: none run (profile published)"]


def test_a_partial_run_says_how_many_selected_tests_never_ran():
    lines = table([], completed=False, not_run=["t.py::a", "t.py::b"])
    assert lines[1] == "PARTIAL RUN: 2 selected tests never ran"


def test_a_line_shows_the_message_of_a_verdict_that_explains_itself():
    lines = table([entry("cot.a", "anchor", "anchor failed", message="AssertionError: broken")])
    assert lines[1] == f"{'anchor failed':<26} {'anchor':<11} cot.a  AssertionError: broken"


def test_a_line_hides_the_message_of_a_verdict_that_needs_none():
    lines = table([entry("cot.a", "claim", "not applicable", message="why not")])
    assert lines[1] == f"{'not applicable':<26} {'claim':<11} cot.a"


def test_a_drifted_line_says_so_and_shows_what_moved():
    tests = [dict(entry("cot.a", "claim", "replicated", message="v moved"), drift="drifted")]
    assert table(tests)[1] == f"{'replicated · drifted':<26} {'claim':<11} cot.a  v moved"


def test_an_unpinned_line_says_so():
    tests = [dict(entry("cot.a", "claim", "replicated"), drift="unpinned")]
    assert table(tests)[1] == f"{'replicated · unpinned':<26} {'claim':<11} cot.a"


def test_a_generalisation_line_names_the_other_model():
    tests = [dict(entry("cot.a", "claim", "replicated"), generalisation="org/other")]
    assert table(tests)[1] == (f"{'replicated':<26} {'claim':<11} cot.a  (generalisation test on "
                               "org/other)")


def test_a_line_is_cut_at_220_characters():
    line = table([entry("cot.a", "claim", "error", message="x" * 300)])[1]
    assert line == f"{'error':<26} {'claim':<11} cot.a  {'x' * 300}"[:220]


def test_a_well_formed_document_has_no_problems():
    assert validate(record([entry("cot.a", "claim", "replicated")])) == []


def test_an_empty_document_lacks_every_block_and_key():
    assert validate({}) == [
        *(f"missing top-level key {k!r}" for k in ("schema", "environment", "run", "counts",
                                                   "tests")),
        *(f"environment lacks {k!r}" for k in ("profile", "mode", "python", "torch",
                                               "transformers", "nnsight", "device", "cuda",
                                               "commit", "started", "models", "duration_s")),
        *(f"run lacks {k!r}" for k in ("completed", "exit_status", "not_run"))]


def test_an_entry_names_each_key_it_lacks_and_a_missing_verdict():
    data = record([])
    data["tests"] = [{"id": "cot.a"}]
    assert validate(data) == [*(f"cot.a: lacks {k!r}" for k in ENTRY_KEYS if k != "id"),
                              "cot.a: unknown verdict None"]


def test_an_unknown_snapshot_or_drift_is_named():
    data = record([dict(entry("cot.a", "claim", "replicated"), snapshot="moved", drift="far")])
    assert validate(data) == ["cot.a: unknown snapshot 'moved'", "cot.a: unknown drift 'far'"]


def test_an_entry_without_an_id_is_named_by_a_question_mark():
    data = record([entry("cot.a", "claim", "passed")])
    del data["tests"][0]["id"]
    assert validate(data) == ["?: lacks 'id'", "?: unknown verdict 'passed'"]
