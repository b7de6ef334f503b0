"""What the rehearsal adds to the pytest runs it starts: each finished test streamed as a JSON
line (heads' smoke block at the published sizes is harness.profile_variants', tested with the
rehearsal variant)."""
from __future__ import annotations

import json
from types import SimpleNamespace

from harness.plugin.entries import entry_of
from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import SPEC, claims_session
from harness.rehearsal.child import Stream
from harness.rehearsal.source_run import streamed
from harness.reporting.record import RecordBuilder
from tests.unit.plugin.judged_items import declared, item, state

WORK = {"source": "cot", "step": "cot_baseline", "seconds": 0.5, "forwards": 3}


def run_one_test(tmp_path):
    """One test's three phases through a stream, its entry joining the record at teardown."""
    test = item(declared())
    session = claims_session(test.config)
    session.record = RecordBuilder({"models": {}})
    stream = Stream(test.config, tmp_path / "tests.jsonl")
    entry = entry_of(test, test.stash[SPEC], state(test))
    for when in ("setup", "call", "teardown"):
        if when == "teardown":
            session.add_entry(SimpleNamespace(user_properties=[]), entry)
        stream.pytest_runtest_logreport(SimpleNamespace(
            when=when, user_properties=[(WORK_PROPERTY, WORK)]))
    return stream, entry


def test_each_finished_test_is_appended_as_it_finishes(tmp_path):
    stream, entry = run_one_test(tmp_path)
    lines = [json.loads(line) for line in stream.path.read_text().splitlines()]
    assert lines == [{"work": WORK}, {"entry": {**entry.to_json(), "verdict": "replicated",
                                                "model": None}}]


def test_the_parent_reads_the_streamed_test_back(tmp_path):
    stream, entry = run_one_test(tmp_path)
    assert streamed(stream.path).tests == (entry,)


def test_an_entry_already_streamed_is_not_streamed_again(tmp_path):
    stream, _ = run_one_test(tmp_path)
    stream.pytest_runtest_logreport(SimpleNamespace(when="teardown", user_properties=[]))
    lines = stream.path.read_text().splitlines()
    assert [next(iter(json.loads(line))) for line in lines] == ["work", "entry"]
