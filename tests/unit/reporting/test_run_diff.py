"""The refactor check: two records differ only in when, where and how fast their tests ran."""
from __future__ import annotations

import copy

from harness.reporting.record import RunRecord
from harness.reporting.run_diff import differences_beyond_timing
from tests.sample_results import results


def _pair() -> tuple[dict, dict]:
    before = results()
    return before, copy.deepcopy(before)


def test_timings_workers_and_the_commit_are_not_differences():
    before, after = _pair()
    for e in after["tests"]:
        e.update(duration=e["duration"] + 1.0, worker="gw1")
    after["environment"].update(commit="def", started="2026-12-01T00:00:00+00:00")
    assert differences_beyond_timing(RunRecord.from_json(before), RunRecord.from_json(after)) == []


def test_a_measured_value_that_moved_at_all_is_a_difference():
    before, after = _pair()
    after["tests"][2]["measured"]["correct_rate"][2] += 1e-12
    found = differences_beyond_timing(RunRecord.from_json(before), RunRecord.from_json(after))
    assert found and found[0].startswith("cot.early-answering: .correct_rate[2]")


def test_a_declared_field_that_changed_is_a_difference():
    before, after = _pair()
    after["tests"][0]["statement"] = "another statement"
    found = differences_beyond_timing(RunRecord.from_json(before), RunRecord.from_json(after))
    assert found == ["cot.verbatim-block-control: statement differs"]
