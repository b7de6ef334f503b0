"""Seed 003 §4 and §6's direction anchors (harness/sources/lookback/direction.py): each reason a
rate would not read a move is reported, on rows the organism never gets wrong."""
from __future__ import annotations

from dataclasses import replace

from harness.sources.lookback.behaviour import FilterAnswers
from harness.sources.lookback.direction import wrong_rows
from harness.sources.lookback.task import build_answer


def test_right_answers_on_distinct_targets_pass():
    """§6: clean and counterfactual runs answering their own answers, the payload the latter."""
    rows = build_answer(n=3)
    assert wrong_rows(rows, FilterAnswers([r.clean_ans for r in rows], [r.cf_ans for r in rows]),
                      rows, True) == []


def test_a_wrong_clean_or_counterfactual_answer_is_reported():
    """§4 reads the clean run's answer only; §6 also the counterfactual's."""
    rows = build_answer(n=2)
    answers = FilterAnswers(["unknown", rows[1].clean_ans], [rows[0].cf_ans, "unknown"])
    assert [w.split(":")[0] for w in wrong_rows(rows, answers, rows, False)] == ["row 0"]
    assert [w.split(":")[0] for w in wrong_rows(rows, answers, rows, True)] == ["row 0", "row 1"]


def test_a_target_equal_to_the_clean_answer_is_reported():
    """A rate of the clean answer itself counts no move."""
    row = build_answer(n=1)[0]
    moved = replace(row, target=row.clean_ans)
    found = wrong_rows([moved], FilterAnswers([row.clean_ans], [row.cf_ans]), [moved], False)
    assert found == [f"row 0: the clean answer {row.clean_ans!r} is the target: a rate of it "
                     f"counts no move"]
