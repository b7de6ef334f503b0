"""`make clean` leaves reports/ with its README alone, whatever the runs wrote there."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.paths import ROOT


@pytest.mark.meta  # runs make: a process of its own
def test_make_clean_removes_everything_the_runs_wrote(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    reports = tmp_path / "reports"
    for written in ("results.json", "claims.html", "history/x.json", "hub/results.json",
                    "rehearsal.json", "tiers.json", "plan-tiny.json", "canary/packages.txt"):
        (reports / written).parent.mkdir(parents=True, exist_ok=True)
        (reports / written).write_text("{}")
    (reports / "README.md").write_text("# reports/")
    subprocess.run(["make", "clean", "PYTHON=true", "LOCK=none"], cwd=tmp_path, check=True,
                   capture_output=True)
    assert [p.name for p in reports.iterdir()] == ["README.md"]
