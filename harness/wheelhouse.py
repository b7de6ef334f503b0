"""Filling the wheelhouse an offline GPU machine installs from (`make wheelhouse`, on a machine
with network; harness/offline.py's `wheelhouse`): WHEELHOUSE at the CUDA lock's pins, each sha256
checked, and the closure of their requirements against what the machine has. Standard library
only."""
from __future__ import annotations

import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from harness.offline_packages import (LIMIT_MIB, LOCK, MACHINE, PLATFORMS, ROOT, WHEELHOUSE,
                                      cuda_stack, hashed_requirements, normalise,
                                      packaging_classes, read_lock, requirements, sha256,
                                      wheel_name, wheel_requires)


def build_wheelhouse(dest: Path, python_version: str, lock: Path = LOCK,
                     platforms: tuple[str, ...] = PLATFORMS) -> int:
    """Download WHEELHOUSE at the lock's pins for `python_version` on Linux x86-64 into `dest`,
    remove any other wheel there, check every sha256 against the lock and the closure of their
    requirements against MACHINE; print each wheel and the total."""
    pins = read_lock(lock)
    unpinned = [n for n in WHEELHOUSE if n not in pins or not pins[n][1]]
    if unpinned:
        print(f"wheelhouse: {lock.name} pins no hashed {', '.join(unpinned)}", file=sys.stderr)
        return 1
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        reqs = hashed_requirements(WHEELHOUSE, pins, Path(tmp))
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                               "--disable-pip-version-check", "--only-binary=:all:", "--no-deps",
                               "--python-version", python_version, "--implementation", "cp",
                               *(a for p in platforms for a in ("--platform", p)),
                               "--require-hashes", "-r", str(reqs), "-d", str(dest)])
    if done.returncode != 0:
        return done.returncode
    errors, kept = [], []
    for path in sorted(dest.iterdir()):
        if path.suffix != ".whl":
            continue
        name, version = wheel_name(path)
        if name not in WHEELHOUSE or version != pins[name][0]:
            print(f"wheelhouse: removed {path.name} (not in WHEELHOUSE at {lock.name}'s pins)")
            path.unlink()
        elif sha256(path) not in pins[name][1]:
            errors.append(f"{path.name}: sha256 {sha256(path)} is not among {lock.name}'s")
            path.unlink()
        else:
            kept.append(path)
    absent = sorted(set(WHEELHOUSE) - {wheel_name(p)[0] for p in kept})
    errors += [f"{n}: no wheel for Python {python_version} on Linux x86-64" for n in absent]
    errors += closure_errors(kept, python_version)
    for path in kept:
        print(f"{path.stat().st_size / 2**20:8.2f} MiB  {path.name}")
    total = sum(p.stat().st_size for p in kept) / 2**20
    print(f"{total:8.2f} MiB  in {len(kept)} wheels in {dest} (limit {LIMIT_MIB} MiB)")
    if total > LIMIT_MIB:
        errors.append(f"the wheelhouse is {total:.1f} MiB, over its {LIMIT_MIB} MiB")
    for e in errors:
        print(f"wheelhouse: {e}", file=sys.stderr)
    return 1 if errors else 0


def closure_errors(wheels: list[Path], python_version: str) -> list[str]:
    """A requirement of a wheel, or a dependency of pyproject.toml, that neither the wheelhouse,
    MACHINE nor the CUDA stack provides."""
    Requirement, _ = packaging_classes()
    have = set(WHEELHOUSE) | MACHINE

    def provided(name: str) -> bool:
        return name in have or cuda_stack(name)

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    errors = [f"pyproject.toml needs {Requirement(d).name}, which neither MACHINE nor WHEELHOUSE "
              f"in harness/offline_packages.py holds" for d in project
              if not provided(normalise(Requirement(d).name))]
    for path in wheels:
        for text in requirements(wheel_requires(path), python_version):
            if not provided(normalise(Requirement(text).name)):
                errors.append(f"{path.name} needs {text}, which neither MACHINE nor WHEELHOUSE "
                              f"in harness/offline_packages.py holds: add it to WHEELHOUSE")
    return errors
