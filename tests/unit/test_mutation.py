"""make mutate's scoring (harness/mutation.py): per-module counts, the goal, and the list of
survivors that cannot change a verdict."""
from __future__ import annotations

import json

from harness import mutation
from tests.paths import ROOT

KILLED_ALL = {"a.x_f__mutmut_1": "killed", "a.x_f__mutmut_2": "timed out"}


def test_killed_and_timed_out_mutants_both_count_as_detected():
    assert mutation.score(KILLED_ALL)["score"] == 1.0


def test_a_survivor_and_an_untested_mutant_lower_the_score():
    counted = mutation.score({**KILLED_ALL, "a.x_f__mutmut_3": "survived",
                              "a.x_f__mutmut_4": "no tests"})
    assert (counted["score"], counted["survived"], counted["no_tests"]) == (0.5, 1, 1)


def test_a_status_mutmut_does_not_name_counts_as_other_and_not_detected():
    counted = mutation.score({"a.x_f__mutmut_1": "exit -11"})
    assert (counted["other"], counted["score"]) == (1, 0.0)


def test_the_meta_files_give_each_module_its_mutants(tmp_path):
    meta = tmp_path / "harness" / "verdicts.py.meta"
    meta.parent.mkdir()
    meta.write_text(json.dumps({"exit_code_by_key": {"m1": 1, "m2": 0, "m3": 33, "m4": 36}}))
    assert mutation.statuses(tmp_path) == {"harness/verdicts.py": {
        "m1": "killed", "m2": "survived", "m3": "no tests", "m4": "timed out"}}


def test_a_module_at_the_goal_with_every_survivor_listed_passes():
    found = {"m.py": {**{f"k{i}": "killed" for i in range(19)}, "s": "survived"}}
    verdict = mutation.judge(found, {"s": "prints the same"}, ["m.py"])
    assert verdict["ok"] and verdict["modules"]["m.py"]["score"] == 0.95


def test_a_module_under_the_goal_fails_even_with_its_survivors_listed():
    found = {"m.py": {**{f"k{i}": "killed" for i in range(18)}, "s": "survived", "t": "survived"}}
    verdict = mutation.judge(found, {"s": "why", "t": "why"}, ["m.py"])
    assert (verdict["ok"], verdict["under_goal"]) == (False, ["m.py"])


def test_an_unlisted_survivor_fails_the_run():
    found = {"m.py": {**{f"k{i}": "killed" for i in range(99)}, "s": "survived"}}
    verdict = mutation.judge(found, {}, ["m.py"])
    assert (verdict["ok"], verdict["unlisted"]) == (False, ["s"])


def test_a_listed_name_that_is_now_killed_is_stale_and_fails_the_run():
    verdict = mutation.judge({"m.py": {"k": "killed"}}, {"k": "was equivalent"}, ["m.py"])
    assert (verdict["ok"], verdict["stale"]) == (False, ["k"])


def test_a_listed_name_that_timed_out_stays_listed():
    verdict = mutation.judge({"m.py": {"t": "timed out"}}, {"t": "slow, equivalent"}, ["m.py"])
    assert (verdict["ok"], verdict["stale"]) == (True, [])


def test_a_listed_name_mutmut_no_longer_makes_is_stale():
    verdict = mutation.judge({"m.py": {"k": "killed"}}, {"gone": "renamed"}, ["m.py"])
    assert verdict["stale"] == ["gone"]


def test_a_configured_module_that_produced_no_mutants_fails_the_run():
    verdict = mutation.judge({"m.py": {"k": "killed"}}, {}, ["m.py", "gone/*"])
    assert (verdict["ok"], verdict["missing"]) == (False, ["gone/*"])


def test_the_table_names_each_failing_survivor():
    found = {"m.py": {"k": "killed", "s": "survived"}}
    lines = mutation.table(mutation.judge(found, {}, ["m.py"]))
    assert "  s: survived" in lines and lines[-1].endswith("FAILED")


def test_the_committed_equivalents_each_give_a_reason():
    assert all(reason.strip() for reason in mutation.equivalents(ROOT / mutation.EQUIVALENT).values())


def test_the_configured_modules_are_the_judging_core():
    assert "harness/plugin/judging.py" in mutation.configured(ROOT / "pyproject.toml")["only_mutate"]


def test_mutmut_runs_with_one_openmp_thread(tmp_path, monkeypatch):
    called = {}
    monkeypatch.setattr(mutation, "MUTANTS", tmp_path / "mutants")
    monkeypatch.setattr(mutation.subprocess, "call",
                        lambda args, **kw: called.update(args=args, env=kw["env"]) or 0)
    assert mutation.run_mutmut(2, tmp_path / "log.txt") == 0
    assert called["args"][-3:] == ["run", "--max-children", "2"]
    assert (called["env"]["OMP_NUM_THREADS"], called["env"]["MKL_NUM_THREADS"]) == ("1", "1")
