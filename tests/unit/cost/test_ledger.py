"""Pinned work ledgers (harness/cost/ledger.py): pinning keeps what was not counted, and moved work is
named step by step."""
from __future__ import annotations

from harness.cost.ledger import differences, read_ledger, write_ledger
from harness.models.work import Work


def counted(forwards: int) -> dict:
    return {"seconds": 1.5, **Work(forwards=forwards, prefills=1, rows=forwards).as_record()}


def test_a_pinned_ledger_reads_back_without_its_seconds(tmp_path):
    path = tmp_path / "work-faithful.json"
    write_ledger(path, {"step_a": counted(5)})
    assert read_ledger(path) == {"step_a": Work(forwards=5, prefills=1, rows=5)}


def test_pinning_keeps_the_steps_this_run_did_not_count(tmp_path):
    path = tmp_path / "work-fast.json"
    write_ledger(path, {"step_a": counted(5)})
    write_ledger(path, {"step_b": counted(7)})
    assert set(read_ledger(path)) == {"step_a", "step_b"}


def test_moved_and_unpinned_steps_are_named(tmp_path):
    path = tmp_path / "work-faithful.json"
    write_ledger(path, {"step_a": counted(5)})
    found = differences(read_ledger(path), {"step_a": counted(6), "step_b": counted(1)})
    assert found == ["step_a: forwards 5 -> 6, rows 5 -> 6", "step_b: no pinned work"]


def test_an_unmoved_step_has_no_difference(tmp_path):
    path = tmp_path / "work-faithful.json"
    write_ledger(path, {"step_a": counted(5)})
    assert differences(read_ledger(path), {"step_a": counted(5)}) == []


def test_no_ledger_reads_as_empty(tmp_path):
    assert read_ledger(tmp_path / "missing.json") == {}
