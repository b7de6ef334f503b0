"""The run record names the lock file its environment was installed from, with the lock's sha256."""
from __future__ import annotations

import datetime as dt
import hashlib

from harness.reporting import history as run_history
from harness.reporting import environment
from harness.reporting.record import RunRecord
from harness.reporting.report import render
from tests.paths import ROOT
from tests.sample_results import results


def test_the_marker_make_setup_writes_is_read_back(tmp_path):
    digest = hashlib.sha256(b"torch==2.13.0 --hash=sha256:00\n").hexdigest()
    (tmp_path / environment.LOCK_MARKER).write_text(f"{digest} requirements.lock\n")
    assert environment.installed_lock(tmp_path) == ("requirements.lock", digest)


def test_an_environment_not_installed_from_a_lock_records_none(tmp_path):
    assert environment.installed_lock(tmp_path) == (None, None)
    (tmp_path / environment.LOCK_MARKER).write_text("")
    assert environment.installed_lock(tmp_path) == (None, None)


def test_the_environment_block_has_the_lock(monkeypatch, tmp_path):
    monkeypatch.setattr(environment, "installed_lock", lambda prefix=None: ("requirements.lock", "ab" * 32))
    env = environment.environment("tiny", ROOT, dt.datetime.now(dt.timezone.utc))
    assert (env["lock"], env["lock_sha256"]) == ("requirements.lock", "ab" * 32)
    page = render(RunRecord.from_json(dict(results(), environment=dict(results()["environment"], **env))),
                  run_history.load(tmp_path / "history"))
    assert f"requirements.lock sha256 {'ab' * 32}" in page
    assert "not installed from a lock" in render(RunRecord.from_json(results()), run_history.load(tmp_path / "history"))


def test_the_makefile_writes_the_marker_record_reads():
    makefile = (ROOT / "Makefile").read_text()
    assert f"$(VENV)/{environment.LOCK_MARKER}" in makefile
    assert "--require-hashes -r" in makefile and "$(LOCK) > $(VENV)/" in makefile
