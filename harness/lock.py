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
import os
import platform
import re
import shutil
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

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


# --- the indexes a lock names -------------------------------------------------------------------

INDEX_LINE = re.compile(r"^\s*(?:--extra-index-url|--index-url|-i|--find-links|-f)[\s=]+"
                        r"(https?://\S+)\s*$", re.M)


def reachable(url: str, timeout: float = 5.0) -> bool:
    """Whether the server answers over HTTPS within `timeout` (any HTTP status counts). No name, no
    route, a refused connection, a certificate that does not verify (with PIP_CERT's bundle where
    it is set) or silence does not: pip would retry each of those for every package."""
    context = ssl.create_default_context(cafile=os.environ.get("PIP_CERT") or None)
    try:
        urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout,
                               context=context).close()
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):  # URLError, timeouts and TLS errors are OSErrors
        return False
    return True


def pip_file(lock: Path, workdir: Path, answers=reachable) -> tuple[Path, list[str]]:
    """The file pip installs for `lock`: the lock itself, or, where an index or find-links URL it
    names does not answer, a copy in `workdir` with those lines commented out. pip asks every
    index for every package, retrying each 5 times: about 8 s a package, 10 minutes for this lock
    (measured), where one dead index could cost nothing. Hashes still decide what installs."""
    text = lock.read_text()
    dead = [url for url in dict.fromkeys(INDEX_LINE.findall(text)) if not answers(url)]
    if not dead:
        return lock, []
    copy = Path(workdir) / f"{lock.name}.reachable"
    copy.write_text(INDEX_LINE.sub(
        lambda m: f"# did not answer at install: {m[0].strip()}" if m[1] in dead else m[0], text))
    return copy, dead


# --- make lock ----------------------------------------------------------------------------------

INDEX_HEADER = (
    "# torch's CPU build comes from PyTorch's CPU index: pip reads the next line. Where that index\n"
    "# does not answer, `make setup` installs without it (harness/lock.py), and pip's own index or\n"
    "# find-links must then hold the torch wheel.\n"
    f"--extra-index-url {TORCH_CPU_INDEX}\n")


def pin_versions(lock: Path) -> dict[str, str]:
    """A lock's pins: name -> version."""
    return dict(re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", lock.read_text(), re.M))


def pins(lock: Path, leave_out: tuple[str, ...] = ()) -> str:
    """A constraints file of a lock's pins (name==version), less the packages `leave_out` names."""
    return "".join(f"{name}=={version}\n" for name, version in pin_versions(lock).items()
                   if name.lower() not in leave_out)


HEADER = re.compile(r"^# .*harness/lock\.py chooses it")


def strip_header(text: str) -> str:
    """The lock as its tool wrote it, without the lines finish() put before."""
    lines = text.splitlines(keepends=True)
    ours = set(INDEX_HEADER.splitlines(keepends=True))
    while lines and (HEADER.match(lines[0]) or lines[0] in ours):
        lines.pop(0)
    return "".join(lines)


def finish(path: Path, lock: Lock) -> str | None:
    """Put the header (platform, torch's source, the index line) on a freshly compiled lock; an
    error where a CPU lock holds a CUDA build of torch."""
    text = strip_header(path.read_text())
    if lock.torch == "cpu" and (cuda := CUDA_STACK.findall(text)):
        return (f"{lock.path}: a CPU lock, but it pins {', '.join(sorted(set(cuda)))}: torch's "
                f"CPU build was not found ({TORCH_CPU_INDEX} did not answer and no find-links "
                f"holds it); restore it (git checkout {lock.path}) and run make lock where the "
                "index answers")
    header = f"# {lock.describe()}. harness/lock.py chooses it; make lock writes it.\n"
    path.write_text(header + (INDEX_HEADER if lock.torch_index else "") + text)
    return None


def uv_command(lock: Lock, uv: str, constraints: Path, upgrade: bool = False) -> list[str]:
    """uv pip compile for one lock; the existing lock's pins are kept unless `upgrade`."""
    cmd = [uv, "pip", "compile", "pyproject.toml", "--extra", "test", "--generate-hashes",
           "--python-platform", UV_PLATFORMS[(lock.system, lock.machine)],
           "--python-version", lock.python, "--constraints", str(constraints),
           "--custom-compile-command", "make lock", "--quiet", "--output-file", lock.path]
    if lock.torch_index:
        cmd += ["--torch-backend", "cpu"]  # torch from PyTorch's CPU index, the rest from PyPI
    return cmd + (["--upgrade"] if upgrade else [])


def compile_one(lock: Lock, uv: str, constraints: Path, upgrade: bool, root: Path) -> str | None:
    """One lock under locks/ with uv; on failure the file is left as it was. An error or None."""
    path = root / lock.path
    before = path.read_text() if path.exists() else None
    if before is not None:  # uv keeps the pins of the file it overwrites: give it its own text
        path.write_text(strip_header(before))
    env = {**os.environ, "MACOSX_DEPLOYMENT_TARGET": MACOSX_DEPLOYMENT_TARGET}
    done = subprocess.run(uv_command(lock, uv, constraints, upgrade), cwd=root, env=env)
    error = (f"{lock.path}: uv pip compile failed ({done.returncode})" if done.returncode
             else finish(path, lock))
    if error is not None:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(before)
    return error


def compile_locks(uv: str, work: Path, upgrade: bool = False, root: Path = ROOT) -> int:
    """After pip-compile wrote requirements.lock and requirements-cuda.lock: the header and index
    line on requirements.lock, then every lock under locks/ with uv, constrained to those two
    locks' pins (a CPU lock to requirements.lock's, less torch; a CUDA lock to
    requirements-cuda.lock's). Linux CPU locks need PyTorch's CPU index; where it does not answer
    they are left as they are. Returns the exit status."""
    errors = []
    if error := finish(root / CPU_LOCK, next(x for x in LOCKS if x.path == CPU_LOCK)):
        errors.append(error)
    work.mkdir(parents=True, exist_ok=True)
    cpu_pins, cuda_pins = work / "requirements.lock.pins", work / "requirements-cuda.lock.pins"
    cpu_pins.write_text(pins(root / CPU_LOCK, leave_out=("torch",)))
    cuda_pins.write_text(pins(root / CUDA_LOCK))
    index_answers = reachable(TORCH_CPU_INDEX)
    skipped = []
    (root / "locks").mkdir(exist_ok=True)
    for lock in (x for x in LOCKS if x.made_by_uv):
        if lock.torch_index and not index_answers:
            skipped.append(lock.path)
            continue
        print(f"{lock.path}: {lock.describe()}", flush=True)
        constraints = cuda_pins if lock.torch == "cuda" else cpu_pins
        if constraints.is_relative_to(root):  # the lock's "# via -c" names it
            constraints = constraints.relative_to(root)
        if error := compile_one(lock, uv, constraints, upgrade, root):
            errors.append(error)
    if skipped:
        print(f"harness.lock: {TORCH_CPU_INDEX} did not answer, so these CPU locks are left as "
              "they are (an absent one stays absent, and its machines install their platform's "
              f"CUDA lock): {', '.join(skipped)}", file=sys.stderr)
    for error in errors:
        print(f"harness.lock: {error}", file=sys.stderr)
    return 1 if errors else 0


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
    return compile_locks(args.uv, args.work, args.upgrade)


if __name__ == "__main__":
    sys.exit(main())
