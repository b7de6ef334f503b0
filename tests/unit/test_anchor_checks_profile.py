"""harness.anchor_checks where a source declares its sizes as a step of the profile (lookback's):
a group's sizes reach the graph as a variant of the profile, batched in fast mode."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pytest

from harness.anchor_checks import FAST, Checked, derived
from harness.profile_variants import with_sizes
from harness.registry import get_profile
from harness.source import Source
from tests.unit.fake_sources import fake_source

STEPS = '''
from harness.declared_steps import Step

CALLS = []  # each sizes step run: (the profile's sizes, batched)


def sizes(profile, batched):
    CALLS.append((profile.sizes["fake"], batched))
    return profile.sizes["fake"]


STEPS = (Step("fake_sizes", sizes, ("profile",), batched=True),)
'''
TESTS = '''
from harness.claims import Holds, claim
from harness.criteria import Exact


@claim("patching.fake-sized", kind="anchor", section="1", needs="cpu", statement="s",
       provenance="p", published={"ok": True}, criterion=Exact("ok"), holds=Holds(Exact("ok")),
       guards=("fake_sizes",))
def test_sized(judge, fake_sizes):
    judge({"ok": fake_sizes == 2})
'''
ANCHOR = "patching.fake-sized"


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Source, Path]]:
    """A source package whose one step is its sizes, read from the profile and batched."""
    yield from fake_source(tmp_path, monkeypatch, "fake_sized", STEPS, TESTS)


def checks(fake: tuple[Source, Path], sizes: int, **profile):
    source, folder = fake
    group = Checked((ANCHOR,), at=lambda n: n + 1)
    return derived(source, (group,), folder, SimpleNamespace(tok="tok"), sizes, **profile)


def test_the_groups_sizes_reach_the_sizes_step_through_the_profile_in_both_modes(fake):
    found = checks(fake, 1, profile=get_profile("tiny"))
    assert [found[ANCHOR](), found[ANCHOR + FAST]()] == [[], []]
    assert sys.modules[f"{fake[0].package}.steps"].CALLS == [(2, False), (2, True)]


def test_a_source_whose_sizes_are_a_step_needs_a_profile(fake):
    with pytest.raises(ValueError, match=r"^fake: its sizes are a step of the profile, and no "
                                         r"profile was given$"):
        checks(fake, 1)


def test_a_profile_with_one_sources_sizes_keeps_the_others():
    tiny = get_profile("tiny")
    varied = with_sizes(tiny, "patching", "the catalogue's")
    assert varied.sizes == {**tiny.sizes, "patching": "the catalogue's"}
    assert varied.models == tiny.models and tiny.sizes["patching"] != "the catalogue's"
