"""The plugin in another project's pytest session (issue 37): it registers its options and stays
inert, importing no torch and running no git; its options clash with no common plugin's."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.plugin.options import DEFAULTS

CONFTEST = '''
import sys

def pytest_sessionfinish(session):
    with open("imported.txt", "w") as f:
        f.write(" ".join(m for m in ("torch", "nnsight", "transformers") if m in sys.modules))
'''

# Options of common pytest plugins (their documentation): none may be the suite's.
COMMON = {"profile", "profile_svg", "pstats_dir", "element_number", "strip_dirs",  # profiling
          "cov", "cov_report", "no_cov", "timeout", "timeout_method", "html", "css",
          "json_report", "asyncio_mode", "randomly_seed", "reruns", "reruns_delay", "count",
          "repeat_scope", "splits", "group", "testmon", "benchmark_only", "benchmark_skip",
          "ds", "dc", "reuse_db", "create_db", "memray", "lf", "ff", "sw"}


@pytest.mark.meta  # a pytest process of its own: make test-meta
@pytest.mark.parametrize("marks", [[], ["-m", "not slow and not gpu"]], ids=["plain", "marks"])
def test_another_projects_session_imports_no_torch_and_runs_no_git(tmp_path, marks):
    project, bin_dir = tmp_path / "project", tmp_path / "bin"
    project.mkdir()
    bin_dir.mkdir()
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_other.py").write_text("def test_other():\n    assert 1 + 1 == 2\n")
    git = bin_dir / "git"
    git.write_text(f"#!/bin/sh\ntouch {tmp_path / 'git-ran'}\nexit 1\n")
    git.chmod(0o755)
    env = os.environ | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *marks],
                          cwd=project, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (project / "imported.txt").read_text() == ""
    assert not (tmp_path / "git-ran").exists()
    assert not (project / "reports").exists()


def test_no_option_of_the_suite_is_a_common_plugins():
    assert set(DEFAULTS) & COMMON == set()
