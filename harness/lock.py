"""Which lock a machine installs: the CUDA build of torch where an NVIDIA driver answers, the CPU
build elsewhere. Standard library only: `make` runs it with the system Python, before .venv.

    python3 -m harness.lock        prints requirements-cuda.lock or requirements.lock
"""
from __future__ import annotations

import shutil
import subprocess

CPU_LOCK = "requirements.lock"
CUDA_LOCK = "requirements-cuda.lock"


def gpus(nvidia_smi: str | None = None) -> list[str]:
    """The GPUs `nvidia-smi -L` lists (none where it is missing or fails: no usable driver)."""
    path = nvidia_smi or shutil.which("nvidia-smi")
    if path is None:
        return []
    try:
        done = subprocess.run([path, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if done.returncode != 0:
        return []
    return [line for line in done.stdout.splitlines() if line.startswith("GPU ")]


def choose(nvidia_smi: str | None = None) -> str:
    """The lock for this machine."""
    return CUDA_LOCK if gpus(nvidia_smi) else CPU_LOCK


if __name__ == "__main__":
    print(choose())
