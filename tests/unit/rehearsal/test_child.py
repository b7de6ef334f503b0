"""What the rehearsal adds to the pytest runs it starts: each finished test streamed as a JSON
line, and at the published sizes heads' smoke block on random weights (issue 39)."""
from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

from harness.models.backends import Backend
from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD_PROPERTY, SESSION, ClaimsSession
from harness.profiles import Mode
from harness.rehearsal import child
from harness.rehearsal.run import STREAM, streamed
from harness.registry import get_profile


def configured(sizes: str) -> ClaimsSession:
    """A session at the published sizes' rehearsal variant after the child's configure hook."""
    profile = get_profile("rehearsal")
    if sizes == "published":
        profile = replace(profile, sizes=get_profile("published").sizes)
    session = ClaimsSession(profile, Mode.FAITHFUL, Backend.LOCAL, {})
    config = SimpleNamespace(getoption=lambda name, default=None: sizes, stash={SESSION: session})
    child.pytest_configure(config)
    return session


def test_at_the_published_sizes_heads_keeps_its_smoke_block_and_nothing_else_moves():
    session = configured("published")
    published = get_profile("published").sizes
    assert session.profile.sizes["heads"].smoke_block == 31
    assert published["heads"].smoke_block is None
    assert {k: v for k, v in session.profile.sizes.items() if k != "heads"} == {
        k: v for k, v in published.items() if k != "heads"}


def test_at_the_rehearsals_own_sizes_nothing_changes():
    assert configured("rehearsal").profile.sizes == get_profile("rehearsal").sizes


def test_each_finished_test_is_appended_as_it_finishes(tmp_path, monkeypatch):
    stream = tmp_path / "tests.jsonl"
    monkeypatch.setenv(STREAM, str(stream))
    entry = {"id": "patching.layer-flip", "source": "patching", "verdict": "not applicable"}
    work = {"source": "patching", "step": "seed_runs", "seconds": 0.5, "forwards": 3}
    for when in ("setup", "call", "teardown"):
        child.pytest_runtest_logreport(SimpleNamespace(
            when=when, user_properties=[(WORK_PROPERTY, work), (RECORD_PROPERTY, entry)]))
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    assert lines == [{"work": work}, {"entry": entry}]
    assert [t.id for t in streamed(stream).tests] == ["patching.layer-flip"]
