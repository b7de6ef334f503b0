"""harness.anchor_checks on a throw-away source and claims folder: an anchor's check is its own
test body on the declared steps, judged by its own holds, and again in fast mode where it reads a
batched step."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from harness.anchor_checks import FAST, Checked, derived, failures
from harness.catalogue import anchored
from harness.criteria import Check, Exact, NoneFailed, NoneOf, all_of
from harness.registry import get_profile
from harness.source import Source
from tests.unit.fake_sources import fake_source

STEPS = '''
from harness.declared_steps import Filtered, NothingToRun, Step


CALLS = []  # each step run, by name


def doubled(sizes):
    CALLS.append("doubled")
    if not sizes:
        raise NothingToRun("no rows")
    return 2 * sizes


STEPS = (
    Step("doubled", doubled, ("fake_sizes",)),
    Step("swept", lambda doubled, batched: CALLS.append(f"swept batched={batched}") or [doubled] * 2,
         ("doubled",), batched=True),
    Step("kept", lambda swept: Filtered([], swept, "none kept"), ("swept",), forced=True),
    Step("profiled", lambda profile: profile.sizes["fake"], ("profile",)),
)
'''
# A claim's id names a registered source: these borrow patching's.
TESTS = '''
from harness.claims import Holds, claim
from harness.criteria import Exact

FIELDS = dict(kind="anchor", section="1", needs="cpu", statement="s", provenance="p",
              published={"ok": True}, criterion=Exact("ok"), holds=Holds(Exact("ok")))


@claim("patching.fake-doubles", guards=("doubled",), **FIELDS)
def test_doubles(judge, doubled):
    judge({"ok": doubled == 4})


@claim("patching.fake-sweeps", guards=("swept",), **FIELDS)
def test_sweeps(judge, swept):
    judge({"ok": swept == [4, 4]})


@claim("patching.fake-forced", guards=("kept",), **FIELDS)
def test_forced(judge, kept):
    judge({"ok": kept == [4]})


@claim("patching.fake-profiled", guards=("profiled",), **FIELDS)
def test_profiled(judge, profiled):
    judge({"ok": profiled == 2})


@claim("patching.fake-given", guards=("doubled",), **FIELDS)
def test_given(judge, fake_model, fake_tokenizer):
    judge({"ok": fake_model.tok == fake_tokenizer == "tok"})


@claim("patching.fake-judges-twice", guards=("doubled",), **FIELDS)
def test_judges_twice(judge, doubled):
    judge({"ok": True})
    judge({"ok": True})


@claim("patching.fake-holds-nothing", guards=("doubled",),
       **{**FIELDS, "holds": None})
def test_holds_nothing(judge, doubled):
    judge({"ok": True})


def helper_with_a_claim():  # not a test: the claims folder's tests are its test_ functions
    pass


helper_with_a_claim.__interp_claim__ = test_doubles.__interp_claim__
'''


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Source, Path]]:
    """A source package declaring two steps, one batched, and a claims folder of two anchors."""
    yield from fake_source(tmp_path, monkeypatch, "fake_anchors", STEPS, TESTS)


def checks(fake: tuple[Source, Path], sizes: int, *groups: Checked):
    source, folder = fake
    groups = groups or (Checked(("patching.fake-doubles", "patching.fake-sweeps")),)
    return derived(source, groups, folder, SimpleNamespace(tok="tok"), sizes)


def calls(fake: tuple[Source, Path]) -> list[str]:
    return sys.modules[f"{fake[0].package}.steps"].CALLS


def test_an_anchor_that_holds_reports_no_failure(fake):
    assert {name: check() for name, check in checks(fake, 2).items()} == {
        "patching.fake-doubles": [], "patching.fake-sweeps": [], "patching.fake-sweeps" + FAST: []}


def test_an_anchor_that_does_not_hold_reports_its_holds_detail(fake):
    assert checks(fake, 3)["patching.fake-doubles"]() == ["ok: measured False, published True"]


def test_only_an_anchor_reading_a_batched_step_is_checked_in_fast_mode_too(fake):
    assert list(checks(fake, 2)) == [
        "patching.fake-doubles", "patching.fake-sweeps", "patching.fake-sweeps (fast mode)"]


def test_the_fast_graph_reads_its_unbatched_steps_from_the_faithful_one(fake):
    found = checks(fake, 2)
    assert [found[name]() for name in ("patching.fake-sweeps", "patching.fake-sweeps" + FAST)] == [
        [], []]
    assert calls(fake) == ["doubled", "swept batched=False", "swept batched=True"]


def test_groups_at_the_same_sizes_share_their_graph(fake):
    found = checks(fake, 2, Checked(("patching.fake-doubles",)), Checked(("patching.fake-sweeps",)))
    assert [found["patching.fake-doubles"](), found["patching.fake-sweeps"]()] == [[], []]
    assert calls(fake) == ["doubled", "swept batched=False"]


def test_an_anchor_reads_the_model_and_tokenizer_it_is_given(fake):
    assert checks(fake, 2, Checked(("patching.fake-given",)))["patching.fake-given"]() == []


def test_a_body_that_judges_other_than_once_raises(fake):
    with pytest.raises(RuntimeError,
                       match=r"^patching\.fake-judges-twice: its body judged 2 times, not once$"):
        checks(fake, 2, Checked(("patching.fake-judges-twice",)))["patching.fake-judges-twice"]()


def test_a_test_without_holds_is_refused_as_a_catalogued_anchor(fake):
    with pytest.raises(ValueError, match=r"^patching\.fake-holds-nothing: a catalogued anchor "
                                         r"declares what holds on every profile$"):
        checks(fake, 2, Checked(("patching.fake-holds-nothing",)))


def test_a_group_runs_its_steps_at_its_own_sizes(fake):
    assert checks(fake, 1, Checked(("patching.fake-doubles",), at=lambda n: n + 1))[
        "patching.fake-doubles"]() == []


def test_a_step_left_nothing_to_run_fails_the_anchor_with_its_reason(fake):
    assert checks(fake, 0)["patching.fake-doubles"]() == ["nothing to run: no rows"]


def test_an_anchor_the_claims_folder_lacks_is_refused(fake):
    with pytest.raises(ValueError, match=r"^fake: ANCHORS names no test in .*/claims: "
                                         r"\['patching\.fake-missing'\]$"):
        checks(fake, 2, Checked(("patching.fake-doubles", "patching.fake-missing")))


BOTH = all_of(Exact("ok"), NoneOf("missed", of="n"))


def test_a_failing_criterion_names_its_listed_cases_first_then_the_other_parts_details():
    assert failures(BOTH, {"ok": False, "missed": ["a", "b"], "n": 3}, {"ok": True}) == [
        "a", "b", "ok: measured False, published True"]


def test_a_holding_criterion_finds_nothing():
    assert failures(BOTH, {"ok": True, "missed": [], "n": 3}, {"ok": True}) == []


def test_a_failing_count_names_the_cases_its_criterion_lists():
    measured = {"failed": 2, "first_failed": ["x", "y"], "checked": 3}
    assert failures(NoneFailed(), measured, {}) == ["x", "y"]


class Keyless:
    """A criterion that names no measured key."""

    def judge(self, measured, published) -> Check:
        return Check(False, "keyless: fails")


def test_a_failing_criterion_without_a_key_gives_its_detail():
    assert failures(Keyless(), {"ok": True}, {}) == ["keyless: fails"]


def test_a_failing_part_with_an_empty_list_gives_its_detail():
    assert failures(BOTH, {"ok": True, "missed": [], "n": 0}, {"ok": True}) == [
        "missed: [] of 0 n"]



def test_a_group_kept_out_of_fast_mode_has_no_fast_mode_check(fake):
    assert list(checks(fake, 2, Checked(("patching.fake-sweeps",), fast=False))) == [
        "patching.fake-sweeps"]


def test_a_group_kept_out_of_faithful_mode_checks_its_anchors_in_fast_mode_only(fake):
    found = checks(fake, 2, Checked(("patching.fake-sweeps",), faithful=False))
    assert list(found) == ["patching.fake-sweeps" + FAST] and found["patching.fake-sweeps" + FAST]() == []


def test_an_anchor_reading_nothing_batched_is_refused_in_fast_mode_alone(fake):
    with pytest.raises(ValueError, match=r"^patching\.fake-doubles: reads no batched step, so fast "
                                         r"mode alone checks it nowhere$"):
        checks(fake, 2, Checked(("patching.fake-doubles",), faithful=False))


def test_a_group_that_forces_rows_takes_a_filters_first_offered_rows_in_both_modes(fake):
    found = checks(fake, 2, Checked(("patching.fake-forced",), forced_rows=1))
    assert {name: check() for name, check in found.items()} == {
        "patching.fake-forced": [], "patching.fake-forced" + FAST: []}


def test_a_group_that_forces_no_rows_has_nothing_to_run_where_a_filter_kept_none(fake):
    assert checks(fake, 2, Checked(("patching.fake-forced",)))["patching.fake-forced"]() == [
        "nothing to run: none kept"]


def test_groups_at_the_same_sizes_forcing_other_rows_have_graphs_of_their_own(fake):
    found = checks(fake, 2, Checked(("patching.fake-sweeps",), forced_rows=1),
                   Checked(("patching.fake-forced",), fast=False))
    assert found["patching.fake-forced"]() == ["nothing to run: none kept"]


def test_the_catalogue_derives_the_checks_of_the_anchors_its_breakages_module_lists(fake):
    source, folder = fake
    (folder.parent / source.package / "breakages.py").write_text(
        "from harness.anchor_checks import Checked\n"
        "ANCHORS = (Checked(('patching.fake-doubles',)),)\n")
    found = anchored(source, folder, SimpleNamespace(tok="tok"), 2, None)()
    assert {name: check() for name, check in found.items()} == {"patching.fake-doubles": []}


def test_a_step_reading_the_profile_finds_the_groups_sizes_there(fake):
    source, folder = fake
    found = derived(source, (Checked(("patching.fake-profiled",), at=lambda n: n + 1),), folder,
                    SimpleNamespace(tok="tok"), 1, profile=get_profile("tiny"))
    assert found["patching.fake-profiled"]() == []
