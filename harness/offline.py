"""A borrowed offline GPU machine: one that brings its own Python and CUDA torch, and has no
package index. Standard library only at import (`make` runs it with the machine's own Python).

    python -m harness.offline wheelhouse [--python-version 3.12]   fill wheelhouse/ (network)
    python -m harness.offline install [--target .offline/site]     what the machine lacks, from it
    python -m harness.offline check                                 exit 2 naming what is absent
    python -m harness.offline versions [--out PATH]                 what ran, as JSON

`make wheelhouse PY=3.12` runs the first on a machine with network; `make gpu-rehearsal OFFLINE=1`
the other three on the borrowed machine, then the rehearsal (docs/running.md, "A borrowed offline
GPU"). The wheelhouse holds exactly WHEELHOUSE at requirements-cuda.lock's pins, each wheel's
sha256 checked against the lock's: what the suite needs (pyproject.toml's dependencies) and their
requirements, less what the machine already has (MACHINE) and the CUDA stack it brings.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

from harness.offline_packages import (FILL, LOCK, MACHINE_PYTHON, NEEDS, PLUGIN, ROOT, WHEELHOUSE,
                                      cuda_stack, hashed_requirements, normalise,
                                      packaging_classes, read_lock, requirements, wheel_name)
from harness.wheelhouse import build_wheelhouse


def installed(name: str, path: list[str] | None = None):
    """The distribution `name` on `path` (default sys.path), or None."""
    found = list(importlib.metadata.distributions(name=name, path=path or sys.path))
    return found[0] if found else None


def install(wheelhouse: Path, target: Path, lock: Path = LOCK) -> int:
    """pip-install into `target`, from `wheelhouse` alone (no index, no dependencies, each sha256
    checked against the lock), the WHEELHOUSE distributions this Python lacks."""
    pins = read_lock(lock)
    target = target.resolve()
    todo = []
    for name in WHEELHOUSE:
        dist = installed(name, [str(target), *sys.path])
        here = dist is not None and Path(str(dist.locate_file(""))).resolve() == target
        if dist is not None and (not here or dist.version == pins[name][0]):
            print(f"offline install: {name} {dist.version} is there "
                  f"({'the wheelhouse' if here else 'the machine'}'s)")
        else:
            todo.append(name)
    if not todo:
        return 0
    wheels = {wheel_name(p) for p in wheelhouse.glob("*.whl")}
    absent = [f"{n}=={pins[n][0]}" for n in todo if (n, pins[n][0]) not in wheels]
    if absent:
        print(f"offline install: {wheelhouse}/ lacks {', '.join(absent)}: fill it on a machine "
              f"with network (`{FILL}`) and carry it here", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        reqs = hashed_requirements(todo, pins, Path(tmp))
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                               "--disable-pip-version-check", "--no-index", "--find-links",
                               str(wheelhouse), "--no-deps", "--only-binary=:all:", "--upgrade",
                               "--target", str(target), "--require-hashes", "-r", str(reqs)])
    if done.returncode == 0:
        print(f"offline install: {', '.join(todo)} into {target}")
    return done.returncode


def absent() -> list[str]:
    """What the suite needs and this Python cannot import, each with why."""
    out = []
    for module, dist in {**NEEDS, PLUGIN: "the suite's plugin (the repo on PYTHONPATH)"}.items():
        try:
            importlib.import_module(module)
        except Exception as error:  # an import that fails for any reason: name it
            why = f"{type(error).__name__}: {error}"
            if isinstance(error, ModuleNotFoundError) and error.name:
                why = ("not installed" if error.name.split(".")[0] == module.split(".")[0]
                       else f"needs {error.name}, absent")
            out.append(f"{dist} (import {module}: {why})")
    named = {line.split(" (")[0] for line in out}
    out += [f"{n} (not installed)" for n in WHEELHOUSE if n not in named and installed(n) is None]
    return out


def conflicts() -> list[str]:
    """Requirements of the needed and wheelhouse distributions that this Python's versions do not
    meet (the machine's own versions are not the lock's): warnings, not failures."""
    Requirement, Version = packaging_classes()
    py = ".".join(map(str, sys.version_info[:2]))
    out = []
    for name in sorted(set(NEEDS.values()) | set(WHEELHOUSE)):
        dist = installed(name)
        for text in requirements(dist.requires or [], py) if dist else []:
            req = Requirement(text)
            if cuda_stack(normalise(req.name)) and normalise(req.name) != "torch":
                continue
            other = installed(req.name)
            if other is None:
                out.append(f"{name} {dist.version} requires {text}: not installed")
            elif not req.specifier.contains(Version(other.version), prereleases=True):
                out.append(f"{name} {dist.version} requires {text}: found {other.version}")
    return out


def check() -> int:
    missing = absent()
    for line in conflicts():
        print(f"offline check: warning: {line}")
    if missing:
        print(f"offline check: {sys.executable} (Python {platform.python_version()}) lacks what "
              f"the suite needs:\n" + "".join(f"  {m}\n" for m in missing)
              + f"Fill the wheelhouse on a machine with network (`{FILL}`), carry wheelhouse/ "
              f"here, and run `make gpu-rehearsal OFFLINE=1`, which installs them from it.",
              file=sys.stderr)
        return 2
    print(f"offline check: all {len(NEEDS)} needed packages and the plugin import")
    return 0


def versions(out: Path) -> dict:
    """The versions that ran, where each came from, and where they differ from the lock."""
    import torch

    pins = read_lock()
    packages = {}
    for name in sorted(set(NEEDS.values()) | set(WHEELHOUSE)):
        dist = installed(name)
        packages[name] = None if dist is None else {
            "version": dist.version, "locked": pins.get(name, (None,))[0],
            "location": str(Path(str(dist.locate_file(""))).resolve())}
    record = {
        "python": platform.python_version(), "executable": sys.executable,
        "platform": platform.platform(),
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "cuda_available": torch.cuda.is_available(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "cudnn": torch.backends.cudnn.version() if torch.cuda.is_available() else None,
        **{n: (packages.get(n) or {}).get("version")
           for n in ("transformers", "nnsight", "syrupy", "pytest")},
        "packages": packages,
        "differ_from_lock": sorted(n for n, p in packages.items()
                                   if p and p["locked"] and p["version"] != p["locked"]),
        "requirement_conflicts": conflicts(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"offline versions: Python {record['python']}, torch {record['torch']} (CUDA "
          f"{record['cuda']}), transformers {record['transformers']}, nnsight "
          f"{record['nnsight']}, syrupy {record['syrupy']}: {out}")
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = parser.add_subparsers(dest="verb", required=True)
    w = verbs.add_parser("wheelhouse", help="fill the wheelhouse (needs network)")
    w.add_argument("--python-version", default=MACHINE_PYTHON)
    w.add_argument("--dest", type=Path, default=ROOT / "wheelhouse")
    w.add_argument("--lock", type=Path, default=LOCK)
    i = verbs.add_parser("install", help="install what this Python lacks from the wheelhouse")
    i.add_argument("--wheelhouse", type=Path, default=ROOT / "wheelhouse")
    i.add_argument("--target", type=Path, default=ROOT / ".offline" / "site")
    i.add_argument("--lock", type=Path, default=LOCK)
    verbs.add_parser("check", help="exit 2 naming each needed package that is absent")
    v = verbs.add_parser("versions", help="record the versions that ran")
    v.add_argument("--out", type=Path, default=ROOT / "reports" / "offline-environment.json")
    args = parser.parse_args(argv)
    if args.verb == "wheelhouse":
        return build_wheelhouse(args.dest, args.python_version, args.lock)
    if args.verb == "install":
        return install(args.wheelhouse, args.target, args.lock)
    if args.verb == "check":
        return check()
    versions(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
