"""A run's environment block: versions, device, ATen CPU capability, the lock the environment was
installed from, the suite's commit and the start time."""
from __future__ import annotations

import datetime as dt
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness.models import determinism
from harness.models.backends import Backend, host


def git_commit(root: Path) -> str | None:
    """The suite's commit, with '+dirty' when the work tree has changes."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
        return sha + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def _version(module: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:
        return None


LOCK_MARKER = "interp-claims-lock.sha256"


def installed_lock(prefix: Path | None = None) -> tuple[str | None, str | None]:
    """The lock file this environment was installed from and its sha256, as `make setup` wrote
    them into the environment (`<sha256>  <lock file>`); (None, None) when it was not installed
    from a lock (a hand-made venv, the canary's newest releases)."""
    try:
        digest, name = (Path(prefix or sys.prefix) / LOCK_MARKER).read_text().split(maxsplit=1)
    except (OSError, ValueError):
        return None, None
    return name.strip(), digest


def environment(profile: str, root: Path, started: dt.datetime, mode: str = "faithful",
                backend: Backend = Backend.LOCAL) -> dict[str, Any]:
    """The environment block: versions, device, profile, mode, backend, commit and start time."""
    import torch

    cuda = torch.cuda.is_available()
    lock, lock_sha256 = installed_lock()
    return {
        "profile": profile,
        "mode": mode,
        "backend": backend.value,
        "host": host(backend),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": _version("transformers"),
        "nnsight": _version("nnsight"),
        "lock": lock,
        "lock_sha256": lock_sha256,
        "device": torch.cuda.get_device_name(0) if cuda else f"cpu ({platform.machine()})",
        "cuda": torch.version.cuda if cuda else None,
        "aten_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "cpu_threads": torch.get_num_threads(),
        "determinism": determinism.settings(),
        "commit": git_commit(root),
        "started": started.isoformat(timespec="seconds"),
        "models": {},
    }
