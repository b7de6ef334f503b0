"""make test's time budget: the table names a tier only past twice its budget, and the record
keeps every tier's time."""
from __future__ import annotations

import fcntl
import json
import threading

from harness.cost.budget import BUDGETS, MARGIN, lock_path, main, record, table


def test_a_tier_within_the_margin_passes_though_over_budget():
    _, over = table({"tiny": BUDGETS["tiny"] * 1.5, "hub": 1.0, "rehearsal": 1.0})
    assert over == []


def test_a_tier_past_the_margin_fails():
    _, over = table({"tiny": BUDGETS["tiny"] * MARGIN + 1, "hub": 1.0, "rehearsal": 1.0})
    assert over == ["tiny"]


def test_the_whole_is_the_sum_of_the_tiers():
    each = BUDGETS["whole"] * MARGIN / 2
    _, over = table({"tiny": each, "rehearsal": each + 1})
    assert "whole" in over


def test_a_tier_not_run_is_shown_not_failed():
    lines, over = table({"tiny": 1.0})
    assert over == [] and any(line.startswith("rehearsal") and "not run" in line for line in lines)


def test_the_record_keeps_every_tier(tmp_path):
    path = tmp_path / "tiers.json"
    record("tiny", 12.34, path)
    assert record("hub", 5.0, path) == {"tiny": 12.3, "hub": 5.0}


def test_a_tier_waits_for_the_one_rewriting_the_record(tmp_path):
    path = tmp_path / "tiers.json"
    record("rehearsal", 90.0, path)
    with lock_path(path).open("w") as held:  # as the other tier holds it while it rewrites
        fcntl.flock(held, fcntl.LOCK_EX)
        writer = threading.Thread(target=record, args=("hub", 12.0, path))
        writer.start()
        writer.join(0.3)
        assert writer.is_alive() and "hub" not in json.loads(path.read_text())["seconds"]
    writer.join()
    assert json.loads(path.read_text())["seconds"] == {"rehearsal": 90.0, "hub": 12.0}


def test_a_tier_outside_make_test_is_shown_and_not_in_the_whole():
    lines, over = table({"tiny": 100.0, "meta": 700.0})
    assert over == [] and any(line.startswith("meta") and "none" in line for line in lines)
    assert any(line.startswith("whole") and "100.0" in line for line in lines)


def test_make_test_metas_tier_is_timed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["time", "meta", "--", "true"]) == 0
    assert "meta" in record("tiny", 1.0, tmp_path / "reports" / "tiers.json")


def bench_record(tmp_path, median: float | None, spread: float = 0.02):
    path = tmp_path / "bench.json"
    path.write_text(json.dumps({"suite_vs_straight": {} if median is None else
                                {"median": median, "spread": spread}}))
    return path


def test_a_bench_median_within_the_limit_is_shown_and_passes(tmp_path):
    from harness.cost.budget import bench_problem

    line, slow = bench_problem(bench_record(tmp_path, 1.04))
    assert line == "bench: suite/straight 1.040x ± 2.0% (limit 1.1x)" and slow is None


def test_a_bench_median_over_the_limit_fails(tmp_path):
    from harness.cost.budget import bench_problem

    assert bench_problem(bench_record(tmp_path, 1.11))[1] == (
        "the suite runs 1.110x straight-line nnsight, over 1.1x")


def test_no_bench_is_no_line(tmp_path):
    from harness.cost.budget import bench_problem

    assert bench_problem(tmp_path / "absent.json") == (None, None)


def test_check_fails_on_a_slow_bench(tmp_path, monkeypatch, capsys):
    from harness.cost import budget

    monkeypatch.setattr(budget, "RECORD", tmp_path / "tiers.json")
    monkeypatch.setattr(budget, "BENCH", bench_record(tmp_path, 1.2))
    assert main(["check"]) == 1
    assert "over 1.1x" in capsys.readouterr().err
