"""make bench on a few problems: two runs of the same side agree within the spread the benchmark
reports, and every side gives the answers of the straight one (issue 50)."""
from __future__ import annotations

import json

import pytest

from harness.sources.cot.bench.__main__ import main


@pytest.mark.meta  # loads the cot organism and times it: make test-meta, alone (quiet)
@pytest.mark.quiet
def test_two_runs_of_one_side_agree_within_the_reported_spread(tmp_path):
    out = tmp_path / "bench.json"
    main(["--problems", "2", "--rounds", "5", "--repeats", "2", "--out", str(out)])
    found = json.loads(out.read_text())
    itself = found["straight_vs_itself"]
    assert abs(itself["median"] - 1) <= itself["spread"] + 0.01, itself
    assert found["suite_vs_straight"]["same_answers"] and found["fast_vs_faithful"]["same_answers"]
    assert found["answers_changed_between_rounds"] == []
