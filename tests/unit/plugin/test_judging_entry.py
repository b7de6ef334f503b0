"""A claim test's entry in the run record, made from its declaration and what its phases left:
the verdict, the first line of its message, what it measured, how it was judged, and where it
ran."""
from __future__ import annotations

import dataclasses

import torch

from harness.claims import Holds
from harness.criteria import Exact
from harness.plugin.entries import entry_of as _entry
from harness.plugin.state import AUDIT, SPEC, claims_session
from harness.profiles import Mode
from harness.registry import get_profile
from harness.snapshots import SnapshotCheck
from harness.sources.heads.organism_notes import CLAIM_NOTES
from harness.verdicts import Comparison, Drift, Failure
from tests.unit.plugin.judged_items import declared, item, state


def entry_of(test, **left):
    """The entry of `test` once its phases left `left` in its state."""
    for name, value in left.items():
        setattr(state(test), name, value)
    return _entry(test, test.stash[SPEC], state(test))


def test_an_entry_carries_the_declaration():
    spec = declared(requires=("cot.a",), decisions=("one", "two"), section="3",
                    statement="the value", provenance="the notebook")
    entry = entry_of(item(spec))
    assert {k: getattr(entry, k) for k in (
        "nodeid", "id", "kind", "source", "statement", "section", "published", "provenance",
        "criterion", "requires", "decisions", "needs")} == {
        "nodeid": "claims/test_x.py::test_x", "id": "cot.x", "kind": "measurement",
        "source": "cot", "statement": "the value", "section": "3", "published": {"v": 1},
        "provenance": "the notebook", "criterion": "v equals the published value",
        "requires": ["cot.a"], "decisions": ["one", "two"], "needs": "cpu"}


def test_a_passing_finding_whose_published_value_applies_is_replicated():
    entry = entry_of(item(declared()))
    assert (entry.verdict, entry.outcome, entry.message) == ("replicated", "passed", "")


def test_a_failed_criterion_is_not_replicated_with_the_first_line_of_its_message():
    entry = entry_of(item(declared()), outcome="failed", message="cot.x not replicated: v\nthe rest")
    assert (entry.verdict, entry.outcome, entry.message) == ("not replicated", "failed",
                                                             "cot.x not replicated: v")


def test_a_crash_is_an_error():
    entry = entry_of(item(declared()), outcome="failed", failure=Failure.CRASH, message="boom")
    assert (entry.verdict, entry.message) == ("error", "boom")


def test_a_skip_naming_the_anchor_that_blocked_it_is_blocked():
    entry = entry_of(item(declared()), outcome="skipped", message="blocked by cot.a: broken")
    assert (entry.verdict, entry.message) == ("blocked", "blocked by cot.a: broken")


def test_an_anchor_of_the_model_that_passes_on_an_organism_held_without_a_message():
    entry = entry_of(item(declared(kind="anchor", needs="gpu")), message="ignored")
    assert (entry.verdict, entry.message) == ("held", "")


def test_an_anchor_whose_hold_was_judged_held():
    test = item(declared(kind="anchor", needs="gpu", holds=Holds(Exact("v"))))
    assert entry_of(test, holds_check={"ok": True, "detail": ""}).verdict == "held"


def test_an_anchor_whose_hold_was_not_judged_is_not_applicable():
    test = item(declared(kind="anchor", needs="gpu", holds=Holds(Exact("v"), behavioural=True)))
    assert entry_of(test, holds_check={"ok": None, "detail": "forced"}).verdict == "not applicable"


def test_a_study_that_recovered_its_known_answer_reads_recovered():
    test = item(declared("heads.s", "claim", "gpu"))
    assert entry_of(test, known_answer={"outcome": "recovered"}).verdict == "recovered"


def test_a_study_that_missed_its_known_answer_reads_missed():
    test = item(declared("heads.s", "claim", "gpu"))
    entry = entry_of(test, outcome="failed", failure=Failure.KNOWN_ANSWER,
                     known_answer={"outcome": "missed"}, message="missed it")
    assert (entry.verdict, entry.message) == ("missed", "missed it")


def test_a_finding_failed_by_drift_alone_keeps_its_verdict_and_says_what_moved():
    entry = entry_of(item(declared(needs="gpu")), outcome="failed", failure=Failure.DRIFT,
                     message="drifted")
    assert (entry.verdict, entry.message) == ("not applicable", "drifted")


def test_an_entry_carries_what_was_measured_and_how_it_was_judged():
    entry = entry_of(item(declared()), measured={"v": 1}, criterion_check={"ok": True},
                     holds_check={"ok": False}, known_answer={"outcome": "missed"},
                     tolerance={"why": "w"})
    assert (entry.measured, entry.criterion_check, entry.holds_check, entry.known_answer,
            entry.tolerance) == ({"v": 1}, {"ok": True}, {"ok": False}, {"outcome": "missed"},
                                 {"why": "w"})


def test_a_drifted_entry_keeps_its_first_twenty_differences():
    moved = tuple(f"k{i}" for i in range(25))
    entry = entry_of(item(declared()), snapshot=SnapshotCheck(Comparison.OUTSIDE, Drift.DRIFTED,
                                                              moved))
    assert (entry.snapshot, entry.drift, entry.drift_detail) == ("outside", "drifted",
                                                                 list(moved[:20]))


def test_differences_within_tolerance_are_not_drift_detail():
    entry = entry_of(item(declared()), snapshot=SnapshotCheck(Comparison.WITHIN, Drift.NONE,
                                                              ("k0",)))
    assert (entry.snapshot, entry.drift, entry.drift_detail) == ("within tolerance", "no drift",
                                                                 [])


def test_an_entry_counts_its_phases_to_the_millisecond():
    assert entry_of(item(declared()), duration=0.12345).duration == 0.123


def test_a_headline_is_filled_from_the_measured_and_the_published_values():
    entry = entry_of(item(declared(headline="v is {v}")), measured={"v": 2})
    assert entry.headline == {"text": "v is {v}", "measured": "v is 2", "published": "v is 1"}


def test_a_gpu_findings_headline_on_an_organism_leaves_the_published_part_out():
    entry = entry_of(item(declared(headline="v is {v}", needs="gpu")), measured={"v": 2})
    assert entry.headline == {"text": "v is {v}", "measured": "v is 2", "published": None}


def test_a_gpu_findings_headline_on_the_published_profile_keeps_the_published_part():
    test = item(declared(headline="v is {v}", needs="gpu"), profile="published")
    assert entry_of(test, measured={"v": 2}).headline["published"] == "v is 1"


def test_an_entry_without_a_headline_has_none():
    entry = entry_of(item(declared()), measured={"v": 2})
    assert entry.headline == {"text": None, "measured": None, "published": None}


def test_an_entry_names_the_worker_and_gpus_it_ran_on(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")
    entry = entry_of(item(declared()))
    assert (entry.worker, entry.gpu) == ("gw7", "3")


def test_an_entry_outside_xdist_and_cuda_names_neither(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    entry = entry_of(item(declared()))
    assert (entry.worker, entry.gpu) == (None, None)


def test_an_entry_records_the_peak_gpu_memory_where_cuda_runs(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda: 12345)
    assert entry_of(item(declared())).peak_gpu_bytes == 12345


def test_an_entry_records_no_gpu_memory_where_cuda_never_ran(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    assert entry_of(item(declared())).peak_gpu_bytes is None


def test_an_entry_records_the_mode_and_the_other_model_it_ran():
    profile = dataclasses.replace(get_profile("micro"), generalisation={"cot": "org/other"})
    entry = entry_of(item(declared(), profile, Mode.FAST))
    assert (entry.mode, entry.generalisation) == ("fast", "org/other")


def test_an_entry_of_a_source_run_on_its_own_model_has_no_generalisation():
    profile = dataclasses.replace(get_profile("micro"), generalisation={"heads": "org/other"})
    assert entry_of(item(declared(), profile)).generalisation is None


def test_an_entry_lists_what_forcing_and_the_device_audit_found():
    test = item(declared(), fixturenames=("cot_rows", "cot_other"))
    claims_session(test.config).forced.update({"cot_rows": "2 rows forced", "heads_x": "no"})
    test.stash[AUDIT] = ["b", "a", "b"]
    entry = entry_of(test)
    assert (entry.forced, entry.device_audit) == (["2 rows forced"], ["a", "b"])


def test_an_entry_with_nothing_forced_or_audited_says_none():
    entry = entry_of(item(declared(), fixturenames=("cot_rows",)))
    assert (entry.forced, entry.device_audit) == (None, None)


def test_an_entry_on_an_organism_carries_its_organism_note():
    entry = entry_of(item(declared("heads.residual-transplant", "claim", "gpu")))
    assert entry.organism_note == CLAIM_NOTES["heads.residual-transplant"]


def test_an_entry_off_the_organisms_carries_no_organism_note():
    spec = declared("heads.residual-transplant", "claim", "gpu")
    assert entry_of(item(spec, "published")).organism_note is None


def test_a_pass_whose_criterion_accepts_its_null_is_inconclusive_saying_which():
    from harness.criteria import Binomial
    from harness.nulls import Null
    from harness.plugin.judging import Judge

    spec = declared(published={"k": 2, "n": 20}, criterion=Binomial("k"),
                    null=Null({"k": 3}, why="chance picks 3 of 20"))
    test = item(spec)
    Judge(test, snapshot=None)({"k": 2, "n": 20})
    entry = entry_of(test)
    assert entry.verdict == "inconclusive" and entry.null_check["accepts_null"] is True
    assert entry.message.startswith("inconclusive: its criterion accepts the null too (k = 3")
    assert entry.sensitivity[0]["key"] == "k/n"


def test_a_pass_whose_criterion_rejects_its_null_is_replicated():
    from harness.criteria import Binomial
    from harness.nulls import Null
    from harness.plugin.judging import Judge

    spec = declared(published={"k": 20, "n": 20}, criterion=Binomial("k"),
                    null=Null({"k": 0}, why="no skill"))
    test = item(spec)
    Judge(test, snapshot=None)({"k": 20, "n": 20})
    assert entry_of(test).verdict == "replicated"
