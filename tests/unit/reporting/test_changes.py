"""What changed since the previous complete run, on fabricated pairs of runs."""
from __future__ import annotations

from harness.reporting.changes import what_changed
from harness.reporting.history import History
from harness.reporting.record import RunRecord


def run(started: str, verdicts: dict[str, str], drift: dict[str, str] | None = None,
        completed: bool = True, **env: str) -> RunRecord:
    drift = drift or {}
    return RunRecord.from_json({"environment": {"started": started, "torch": "2.13.0", "transformers": "5.24.0",
                            "duration_s": 1.0, **env},
            "run": {"completed": completed},
            "tests": [{"id": i, "verdict": v, "message": f"{i} message",
                       "drift": drift.get(i, "no drift"), "drift_detail": ["x moved"]}
                      for i, v in verdicts.items()]})


BEFORE = run("2026-11-29T00:00:00", {"a": "replicated", "b": "replicated", "c": "replicated"})


def test_an_unchanged_run_has_nothing_to_say():
    now = run("2026-11-30T00:00:00", {"a": "replicated", "b": "replicated", "c": "replicated"})
    changes = what_changed(now, History(runs=[("r1", BEFORE), ("r2", now)]))
    assert changes.previous == "r1" and not changes.any


def test_a_changed_verdict_names_both_verdicts():
    now = run("2026-11-30T00:00:00", {"a": "not replicated", "b": "replicated", "c": "replicated"})
    changes = what_changed(now, History(runs=[("r1", BEFORE), ("r2", now)]))
    assert changes.verdicts == [{"id": "a", "before": "replicated", "after": "not replicated"}]


def test_drift_comes_with_the_versions_that_differed():
    now = run("2026-11-30T00:00:00", {"a": "replicated", "b": "replicated", "c": "replicated"},
              drift={"b": "drifted"}, transformers="5.25.0")
    changes = what_changed(now, History(runs=[("r1", BEFORE), ("r2", now)]))
    assert [d["id"] for d in changes.drifted] == ["b"]
    assert changes.environment == {"transformers": ("5.24.0", "5.25.0")}


def test_a_new_skip_is_listed_once():
    now = run("2026-11-30T00:00:00", {"a": "replicated", "b": "skipped", "c": "replicated"})
    changes = what_changed(now, History(runs=[("r1", BEFORE), ("r2", now)]))
    assert changes.new_skips == [{"id": "b", "message": "b message"}]


def test_a_partial_run_is_never_the_one_compared_with():
    partial = run("2026-11-29T12:00:00", {"a": "error"}, completed=False)
    now = run("2026-11-30T00:00:00", {"a": "replicated", "b": "replicated", "c": "replicated"})
    changes = what_changed(now, History(runs=[("r1", BEFORE), ("r2", partial), ("r3", now)]))
    assert changes.previous == "r1" and not changes.verdicts


def test_a_first_run_has_no_previous_run():
    now = run("2026-11-30T00:00:00", {"a": "replicated"}, drift={"a": "drifted"})
    changes = what_changed(now, History(runs=[("r1", now)]))
    assert changes.previous is None and [d["id"] for d in changes.drifted] == ["a"]


TINY = {"profile": "tiny", "mode": "faithful",
        "selection": {"markers": "not slow and not meta", "keywords": "", "paths": ["claims"]}}


def test_a_run_is_never_compared_with_another_profiles():
    hub = run("2026-11-29T00:00:00", {"a": "skipped"}, **{**TINY, "profile": "published"})
    now = run("2026-11-30T00:00:00", {"a": "not applicable"}, **TINY)
    changes = what_changed(now, History(runs=[("hub", hub), ("now", now)]))
    assert changes.previous is None and changes.verdicts == []


def test_a_run_is_never_compared_with_another_modes():
    fast = run("2026-11-29T00:00:00", {"a": "skipped"}, **{**TINY, "mode": "fast"})
    now = run("2026-11-30T00:00:00", {"a": "held"}, **TINY)
    assert what_changed(now, History(runs=[("fast", fast), ("now", now)])).previous is None


def test_a_run_is_never_compared_with_another_selection():
    other = run("2026-11-29T00:00:00", {"a": "skipped"},
                **{**TINY, "selection": {"markers": "hub", "keywords": "", "paths": ["claims"]}})
    now = run("2026-11-30T00:00:00", {"a": "held"}, **TINY)
    assert what_changed(now, History(runs=[("other", other), ("now", now)])).previous is None


def test_the_last_run_alike_is_the_one_compared_and_named_with_what_they_share():
    older = run("2026-11-28T00:00:00", {"a": "held"}, **TINY)
    hub = run("2026-11-29T00:00:00", {"a": "skipped"}, **{**TINY, "profile": "published"})
    now = run("2026-11-30T00:00:00", {"a": "held"}, **TINY)
    changes = what_changed(now, History(runs=[("older", older), ("hub", hub), ("now", now)]))
    assert changes.previous == "older" and not changes.any
    assert changes.like == ("tiny profile, faithful mode, selection -m 'not slow and not meta' "
                            "claims")
