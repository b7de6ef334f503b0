"""The experiment thread (harness/plugin/experiment_thread.py) in a forked child, as mutmut runs
each mutant: the child starts a thread of its own instead of waiting on its parent's."""
from __future__ import annotations

import os
import time

from harness.plugin.experiment_thread import on_experiment_thread


def test_a_forked_child_runs_its_fixtures_on_a_thread_of_its_own():
    answer = on_experiment_thread(lambda: 42)
    assert answer() == 42  # the parent's pool and thread exist before the fork
    pid = os.fork()
    if pid == 0:
        os._exit(0 if answer() == 42 else 1)
    deadline = time.monotonic() + 20
    while (done := os.waitpid(pid, os.WNOHANG)) == (0, 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    if done == (0, 0):
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert done != (0, 0) and os.waitstatus_to_exitcode(done[1]) == 0
