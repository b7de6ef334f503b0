"""`make lock`'s last step (harness.lock's `compile`): the header and index line on
requirements.lock, then every lock under locks/ compiled with uv, constrained to the two root
locks' pins. Standard library only, as harness.lock."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from harness.lock import (CPU_LOCK, CUDA_LOCK, CUDA_STACK, LOCKS, MACOSX_DEPLOYMENT_TARGET, ROOT,
                          TORCH_CPU_INDEX, UV_PLATFORMS, Lock)
from harness.lock_index import reachable

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
