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
import hashlib
import importlib
import importlib.metadata
import json
import platform
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-cuda.lock"
FILL = "make wheelhouse PY=3.12"  # the make target that fills the wheelhouse
MACHINE_PYTHON = "3.12"

# The borrowed machines' own packages (their image, as listed on 2026-11-17; Python 3.12.3, torch
# 2.11.0+cu130, transformers 5.17.0, huggingface_hub 1.33.0): distribution names, normalised.
MACHINE = frozenset("""
absl-py accelerate aiofiles aiohappyeyeballs aiohttp aiosignal annotated-doc anyio attrs botorch
build certifi charset-normalizer chex click cloudpickle cmake colorama contourpy coverage
cuda-bindings cuda-core cuda-pathfinder cuda-toolkit cupy-cuda13x cycler cython diffrax e3nn einops
equinox etils execnet filelock flatbuffers flax fonttools formulaic frozenlist fsspec gpytorch grpcio
h11 h5py hf-xet httpcore httpx huggingface-hub humanize hypothesis idna imageio iniconfig
interface-meta jax jax-cuda13-pjrt jax-cuda13-plugin jaxlib jaxtyping jinja2 joblib kiwisolver
lazy-loader lightning lightning-utilities linear-operator lineax llvmlite lxml markdown
markdown-it-py markupsafe matplotlib mdurl meson ml-dtypes mpi4py mpmath msgpack multidict
multipledispatch mypy-extensions nanobind narwhals networkx ninja numba numba-cuda numpy numpyro
nvidia-cublas nvidia-cuda-cupti nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cudnn-cu13 nvidia-cufft
nvidia-cufile nvidia-curand nvidia-cusolver nvidia-cusparse nvidia-cusparselt-cu13 nvidia-ml-py
nvidia-nccl-cu13 nvidia-nvjitlink nvidia-nvshmem-cu13 nvidia-nvtx onnx onnx-ir onnxruntime
onnxscript opencv-python-headless optax opt-einsum opt-einsum-fx optimistix orbax-checkpoint
packaging pandas pathspec patsy peft pillow pip pluggy portalocker prometheus-client propcache
protobuf psutil pyarrow pybind11 py-cpuinfo pygments pyparsing pyproject-hooks pyre-extensions
pytest pytest-benchmark pytest-cov pytest-mock pytest-timeout pytest-xdist python-dateutil
pytorch-lightning pyyaml regex requests rich sacrebleu safetensors scikit-build-core scikit-image
scikit-learn scipy seaborn sentencepiece sentence-transformers setuptools shellingham simplejson six
sortedcontainers statsmodels sympy tabulate tensorboard tensorboard-data-server tensorstore
threadpoolctl tifffile tiktoken timm tokenizers toolz torch torchaudio torchdiffeq torch-geometric
torchmetrics torchvision tqdm transformers treescope triton typer typing-extensions typing-inspect
urllib3 uvloop wadler-lindig werkzeug wheel wrapt xarray xxhash yarl zipp
""".split())

# Never carried: the machine's own CUDA build of torch and what comes with it.
CUDA_STACK = ("torch", "triton", "nvidia-", "cuda-")

# What the wheelhouse holds: nnsight and syrupy and, of their requirements (on Python 3.12,
# Linux x86-64), those MACHINE lacks. `wheelhouse` checks the closure: a requirement of one of
# these, or a dependency in pyproject.toml, that neither MACHINE nor this holds fails it.
WHEELHOUSE = ("nnsight", "syrupy", "pydantic", "pydantic-core", "annotated-types",
              "typing-inspection", "greenlet", "websocket-client", "zstandard")

# What the suite imports (pyproject.toml's dependencies): import name -> distribution.
NEEDS = {"torch": "torch", "transformers": "transformers", "nnsight": "nnsight",
         "syrupy": "syrupy", "pytest": "pytest", "xdist": "pytest-xdist",
         "accelerate": "accelerate", "tokenizers": "tokenizers",
         "huggingface_hub": "huggingface-hub", "filelock": "filelock",
         "safetensors": "safetensors", "numpy": "numpy", "scipy": "scipy", "pandas": "pandas",
         "tqdm": "tqdm", "jinja2": "jinja2", "matplotlib": "matplotlib"}
PLUGIN = "harness.plugin"  # the suite's pytest plugin: PYTEST_PLUGINS, the repo on PYTHONPATH

# Wheels for any glibc from 2.17 on (the machine's is newer); pip matches each tag exactly.
PLATFORMS = (*(f"manylinux_2_{n}_x86_64" for n in range(17, 36)), "manylinux2014_x86_64",
             "manylinux2010_x86_64", "manylinux1_x86_64")
LIMIT_MIB = 16  # of the 64 MiB carried: the repository and the published configs take the rest


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def cuda_stack(name: str) -> bool:
    return any(name == p or (p.endswith("-") and name.startswith(p)) for p in CUDA_STACK)


def read_lock(lock: Path = LOCK) -> dict[str, tuple[str, frozenset[str]]]:
    """The lock's pins: name -> (version, sha256s)."""
    pins: dict[str, tuple[str, frozenset[str]]] = {}
    name = None
    for line in lock.read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", line):
            name = normalise(m[1])
            pins[name] = (m[2], frozenset())
        for digest in re.findall(r"--hash=sha256:([0-9a-f]{64})", line):
            if name is not None:
                pins[name] = (pins[name][0], pins[name][1] | {digest})
    return pins


def _packaging():
    """packaging's Requirement and Version: the installed one, else pip's own copy."""
    try:
        from packaging.requirements import Requirement
        from packaging.version import Version
    except ImportError:
        from pip._vendor.packaging.requirements import Requirement
        from pip._vendor.packaging.version import Version
    return Requirement, Version


def marker_environment(python_version: str) -> dict[str, str]:
    return {"python_version": python_version, "python_full_version": f"{python_version}.0",
            "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
            "os_name": "posix", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def requirements(requires: list[str], python_version: str) -> list[str]:
    """Of Requires-Dist lines, those that apply on Linux x86-64 under `python_version`, no
    extra."""
    Requirement, _ = _packaging()
    env = marker_environment(python_version)
    out = []
    for text in requires:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(env):
            out.append(text)
    return out


def wheel_name(path: Path) -> tuple[str, str]:
    """A wheel file's (normalised name, version)."""
    name, version = path.name.split("-")[:2]
    return normalise(name), version


def wheel_requires(path: Path) -> list[str]:
    """A wheel's Requires-Dist lines."""
    with zipfile.ZipFile(path) as z:
        member = next(n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        return HeaderParser().parsestr(z.read(member).decode()).get_all("Requires-Dist") or []


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _hashed_requirements(names, pins, folder: Path) -> Path:
    path = folder / "requirements.txt"
    path.write_text("".join(f"{n}=={pins[n][0]} "
                            + " ".join(f"--hash=sha256:{h}" for h in sorted(pins[n][1])) + "\n"
                            for n in names))
    return path


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
        reqs = _hashed_requirements(WHEELHOUSE, pins, Path(tmp))
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
    Requirement, _ = _packaging()
    have = set(WHEELHOUSE) | MACHINE

    def provided(name: str) -> bool:
        return name in have or cuda_stack(name)

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    errors = [f"pyproject.toml needs {Requirement(d).name}, which neither MACHINE nor WHEELHOUSE "
              f"in harness/offline.py holds" for d in project
              if not provided(normalise(Requirement(d).name))]
    for path in wheels:
        for text in requirements(wheel_requires(path), python_version):
            if not provided(normalise(Requirement(text).name)):
                errors.append(f"{path.name} needs {text}, which neither MACHINE nor WHEELHOUSE "
                              f"in harness/offline.py holds: add it to WHEELHOUSE")
    return errors


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
        reqs = _hashed_requirements(todo, pins, Path(tmp))
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
    Requirement, Version = _packaging()
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
