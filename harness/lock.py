"""Which lock a machine installs, and how `make lock` makes each one. Standard library only: `make`
runs it with the system Python, before .venv.

    python3 -m harness.lock                      the lock for this machine (its path)
    python3 -m harness.lock index-option         --extra-index-url <PyTorch's CPU index>, if it answers
    python3 -m harness.lock compile --uv UV      make lock's last step (finish requirements.lock,
                                                 compile locks/ with uv)

Every lock pins every package with its sha256 for one platform and one Python (3.11, 3.12, 3.13):

- Linux x86-64 and aarch64, torch's CPU build (`+cpu`, from PyTorch's CPU index, which the lock
  names at its top): requirements.lock (x86-64, Python 3.11), else
  locks/linux-<machine>-py<version>.lock.
- Linux x86-64 and aarch64, PyPI's torch, a CUDA build (the nvidia-* wheels, GBs; it runs on the
  CPU too): requirements-cuda.lock (x86-64, Python 3.11), else
  locks/linux-<machine>-cuda-py<version>.lock. Where `nvidia-smi -L` lists a GPU.
- macOS arm64 (Apple silicon, macOS 14 or later): locks/macos-arm64-py<version>.lock, PyPI's torch
  (its CPU and MPS build).

A machine without a GPU whose checkout lacks its CPU lock (they need PyTorch's index to be made)
gets the CUDA lock of its platform, with a warning.
"""
from __future__ import annotations

import argparse
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.lock_index import reachable

ROOT = Path(__file__).resolve().parents[1]
CPU_LOCK = "requirements.lock"
CUDA_LOCK = "requirements-cuda.lock"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
PYTHONS = ("3.11", "3.12", "3.13")
# What uv resolves each platform for: torch 2.13's wheels are manylinux_2_28 and macosx_14_0.
UV_PLATFORMS = {("linux", "x86_64"): "x86_64-manylinux_2_28",
                ("linux", "aarch64"): "aarch64-manylinux_2_28",
                ("darwin", "arm64"): "aarch64-apple-darwin"}
MACOSX_DEPLOYMENT_TARGET = "14.0"
NAMES = {"linux": "Linux", "darwin": "macOS", "windows": "Windows", "x86_64": "x86-64",
         "aarch64": "aarch64", "arm64": "arm64"}
SUPPORTED = ("Linux x86-64 and aarch64 (glibc 2.28+) and macOS arm64 (Apple silicon, macOS 14+), "
             "each on Python " + ", ".join(PYTHONS))
# Packages that only a CUDA build of torch pulls in: a CPU lock must hold none.
CUDA_STACK = re.compile(r"^(nvidia-[\w.-]+|cuda-[\w.-]+|triton)==", re.M)


@dataclass(frozen=True)
class Lock:
    path: str
    system: str  # sys.platform: linux or darwin
    machine: str  # x86_64, aarch64 (Linux) or arm64 (macOS)
    python: str  # 3.11
    torch: str  # cpu: torch's CPU build (on macOS, PyPI's); cuda: PyPI's CUDA build

    @property
    def torch_index(self) -> bool:
        """Whether its torch comes from PyTorch's CPU index (Linux, CPU build) rather than PyPI."""
        return self.system == "linux" and self.torch == "cpu"

    @property
    def made_by_uv(self) -> bool:
        return self.path not in (CPU_LOCK, CUDA_LOCK)

    def describe(self) -> str:
        source = ("torch's CPU build from PyTorch's CPU index" if self.torch_index else
                  "PyPI's torch, a CUDA build that also runs on the CPU" if self.torch == "cuda"
                  else "PyPI's torch (CPU and MPS)")
        return f"{NAMES[self.system]} {NAMES[self.machine]}, Python {self.python}: {source}"


def _locks() -> tuple[Lock, ...]:
    locks = []
    for python in PYTHONS:
        for machine in ("x86_64", "aarch64"):
            for torch in ("cpu", "cuda"):
                if (machine, python) == ("x86_64", "3.11"):
                    path = CPU_LOCK if torch == "cpu" else CUDA_LOCK
                else:
                    path = f"locks/linux-{machine}{'-cuda' if torch == 'cuda' else ''}-py{python}.lock"
                locks.append(Lock(path, "linux", machine, python, torch))
        locks.append(Lock(f"locks/macos-arm64-py{python}.lock", "darwin", "arm64", python, "cpu"))
    return tuple(locks)


LOCKS = _locks()


class NoLock(Exception):
    """No lock fits the machine; the message names the supported combinations."""


def normalise(system: str, machine: str) -> tuple[str, str]:
    """(sys.platform, machine) from sys.platform or platform.system(), and platform.machine()."""
    system = system.lower()
    system = {"win32": "windows", "cygwin": "windows"}.get(system, system)
    system = "linux" if system.startswith("linux") else system
    machine = machine.lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    if system == "darwin" and machine == "aarch64":
        machine = "arm64"
    return system, machine


def python_version(version) -> str:
    """"3.12" from "3.12", "3.12.4", (3, 12) or sys.version_info."""
    parts = version.split(".") if isinstance(version, str) else list(version)
    return f"{int(parts[0])}.{int(parts[1])}"


def select(system: str, machine: str, version, has_gpu: bool,
           present: frozenset[str] | set[str] | None = None) -> Lock:
    """The lock for a machine: the CUDA build where it has an NVIDIA GPU, the CPU build elsewhere;
    where the checkout lacks that lock (`present`: the lock files it has; None: every one), the
    platform's other lock. Raises NoLock naming the supported combinations."""
    system, machine = normalise(system, machine)
    python = python_version(version)
    fits = {lock.torch: lock for lock in LOCKS
            if (lock.system, lock.machine, lock.python) == (system, machine, python)}
    here = f"{NAMES.get(system, system)} {NAMES.get(machine, machine)}, Python {python}"
    if not fits:
        hint = ""
        if (system, machine) == ("darwin", "x86_64"):
            hint = (" (PyPI has no torch 2.13 for Intel Macs; on Apple silicon, an x86-64 Python "
                    "runs under Rosetta: use an arm64 one)")
        elif python not in PYTHONS and (system, machine) in UV_PLATFORMS:
            hint = f" (PYTHON=python{PYTHONS[-1]} make test chooses another Python)"
        raise NoLock(f"no lock for {here}{hint}. Locks exist for {SUPPORTED}; "
                     "`make setup LOCK=<file>` installs one by name.")
    for torch in ("cuda", "cpu") if has_gpu else ("cpu", "cuda"):
        if torch in fits and (present is None or fits[torch].path in present):
            return fits[torch]
    raise NoLock(f"this checkout has none of the locks for {here} "
                 f"({', '.join(lock.path for lock in fits.values())}): `make lock` makes them.")


def note(lock: Lock, has_gpu: bool) -> str | None:
    """A warning where the lock chosen is not the build the machine wants."""
    wanted = "cuda" if has_gpu and lock.system == "linux" else "cpu"
    if lock.torch == wanted:
        return None
    missing = next(other.path for other in LOCKS if other.torch == wanted and
                   (other.system, other.machine, other.python) ==
                   (lock.system, lock.machine, lock.python))
    if wanted == "cpu":
        return (f"this checkout has no {missing} (the CPU build: `make lock` makes it where "
                f"{TORCH_CPU_INDEX} answers); installing {lock.path}: PyPI's torch, a CUDA build "
                "that runs on the CPU too, with GBs of nvidia-* wheels")
    return f"this checkout has no {missing}; installing {lock.path}, torch's CPU build"


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


def present(root: Path = ROOT) -> frozenset[str]:
    return frozenset(lock.path for lock in LOCKS if (root / lock.path).is_file())


def choose(nvidia_smi: str | None = None) -> str:
    """The lock for this machine (raises NoLock)."""
    has_gpu = bool(gpus(nvidia_smi))
    lock = select(sys.platform, platform.machine(), sys.version_info, has_gpu, present())
    if (warning := note(lock, has_gpu)) is not None:
        print(f"harness.lock: {warning}", file=sys.stderr)
    return lock.path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("index-option", help="--extra-index-url for pip-compile, if it answers")
    c = commands.add_parser("compile", help="make lock's last step")
    c.add_argument("--uv", required=True, help="the uv executable")
    c.add_argument("--work", type=Path, default=ROOT / ".lock-tools",
                   help="where the constraints files go (default .lock-tools)")
    c.add_argument("--upgrade", action="store_true", help="move every pin the two root locks "
                   "leave free to its newest release")
    args = parser.parse_args(argv)
    if args.command is None:
        try:
            print(choose())
        except NoLock as exc:
            print(f"harness.lock: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.command == "index-option":
        if reachable(TORCH_CPU_INDEX):
            print(f"--extra-index-url {TORCH_CPU_INDEX}")
        else:
            print(f"harness.lock: {TORCH_CPU_INDEX} did not answer: torch's CPU build must come "
                  "from pip's own index or find-links", file=sys.stderr)
        return 0
    from harness.lock_making import compile_locks  # make lock's last step (harness/lock_making.py)
    return compile_locks(args.uv, args.work, args.upgrade)


if __name__ == "__main__":
    sys.exit(main())
