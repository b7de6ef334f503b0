"""What the rehearsal adds to the pytest runs it starts: each finished test streamed as a JSON
line (heads' smoke block at the published sizes is harness.profile_variants', tested with the
rehearsal variant)."""
from __future__ import annotations

import json
from types import SimpleNamespace

from harness.plugin.metering import WORK_PROPERTY
from harness.plugin.state import RECORD_PROPERTY
from harness.rehearsal import child
from harness.rehearsal.run import STREAM, streamed


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
