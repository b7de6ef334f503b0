"""A borrowed offline GPU machine, simulated on the CPU (issue 39): a Python with torch and the
machine's other packages (harness.offline_packages.MACHINE) but neither nnsight, syrupy nor this
package installed, and no package index. `make gpu-rehearsal OFFLINE=1` installs what it lacks from the
wheelhouse and runs the CUDA rehearsal's dry run through it, the plugin loaded by PYTEST_PLUGINS.

The simulated machine is a venv of this environment's base Python whose site-packages links, entry
by entry, this environment's distributions that the machine has (with what they need here, since
these are not the machine's versions): built in a few seconds, kept under .offline/ (git-ignored)
with the wheelhouse for this Python, which `make wheelhouse` fills once (it needs the network)."""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from filelock import FileLock
from packaging.requirements import Requirement

from harness.offline_packages import (CUDA_STACK, MACHINE, NEEDS, WHEELHOUSE, cuda_stack,
                                      normalise, read_lock, wheel_name)
from tests.paths import ROOT, SHARED_CACHE

pytestmark = pytest.mark.meta  # every test here but the first starts processes: make test-meta

CACHE = ROOT / ".offline"
PY = f"{sys.version_info[0]}.{sys.version_info[1]}"
PINS = read_lock()


def test_the_declared_sets_cover_the_suite_and_stay_apart():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    needed = {normalise(Requirement(d).name) for d in project}
    assert set(NEEDS.values()) == needed
    assert needed <= MACHINE | set(WHEELHOUSE)
    assert all(n in PINS and PINS[n][1] for n in WHEELHOUSE)
    assert not set(WHEELHOUSE) & MACHINE and not any(map(cuda_stack, WHEELHOUSE))
    assert all(cuda_stack(n) for n in ("torch", "triton", "nvidia-cublas")), CUDA_STACK


def machine_distributions() -> dict[str, importlib.metadata.Distribution]:
    """This environment's distributions that the borrowed machine has, with what they need here,
    less the wheelhouse's and this package."""
    here = {normalise(d.metadata["Name"]): d for d in importlib.metadata.distributions()}
    keep: dict[str, importlib.metadata.Distribution] = {}
    todo = sorted(MACHINE & here.keys())
    while todo:
        name = todo.pop()
        if name in keep or name in WHEELHOUSE or name == "interp-claims" or name not in here:
            continue
        keep[name] = here[name]
        for text in here[name].requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(normalise(req.name))
    return keep


@pytest.fixture(scope="module")
def machine() -> Path:
    """The simulated machine's python."""
    dists = machine_distributions()
    assert {"torch", "transformers", "pytest", "pip"} <= dists.keys()
    stamp = hashlib.sha256(json.dumps([sys.prefix, sorted(f"{n}=={d.version}"
                                                          for n, d in dists.items())]).encode())
    home = CACHE / f"machine-py{PY}-{stamp.hexdigest()[:12]}"
    CACHE.mkdir(exist_ok=True)
    with FileLock(CACHE / "machine.lock"):
        if not (home / "complete").exists():
            subprocess.run([Path(sys.base_prefix) / "bin" / "python3", "-m", "venv", "--clear",
                            "--without-pip", home], check=True)
            site = home / "lib" / f"python{PY}" / "site-packages"
            for dist in dists.values():
                for top in {f.parts[0] for f in dist.files or []} - {"..", "__pycache__"}:
                    source, link = Path(dist.locate_file(top)), site / top
                    if source.exists() and not link.exists():
                        link.symlink_to(source)
            (home / "complete").touch()
    return home / "bin" / "python"


def bare_environment() -> dict[str, str]:
    """The environment of a machine with no package index and no network: nothing of this one's
    Python, pip, pytest or make settings."""
    drop = ("PIP_", "PYTHON", "PYTEST_", "VIRTUAL_ENV", "INTERP_CLAIMS", "MAKE", "MFLAGS",
            "HF_HOME")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    proxy = "http://127.0.0.1:9"  # nothing listens there: any network use fails at once
    return env | {"PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "HF_HUB_OFFLINE": "1",
                  "HTTP_PROXY": proxy, "HTTPS_PROXY": proxy, "http_proxy": proxy,
                  "https_proxy": proxy, "NO_PROXY": "", "no_proxy": ""}


@pytest.fixture(scope="module")
def wheelhouse(machine: Path) -> Path:
    """The wheelhouse for this Python, filled by `make wheelhouse` where it lacks a wheel."""
    dest = CACHE / f"wheelhouse-py{PY}"
    with FileLock(CACHE / "wheelhouse.lock"):
        have = {wheel_name(p) for p in dest.glob("*.whl")}
        if not all((n, PINS[n][0]) in have for n in WHEELHOUSE):
            done = subprocess.run(["make", "wheelhouse", f"PY={PY}", f"WHEELHOUSE={dest}",
                                   f"PYTHON={machine}"], cwd=ROOT, capture_output=True, text=True,
                                  env={k: v for k, v in os.environ.items()
                                       if not k.startswith(("MAKE", "MFLAGS"))})
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
            assert f"in {len(WHEELHOUSE)} wheels" in done.stdout, done.stdout
    return dest


def test_the_check_names_what_the_machine_lacks_and_how_to_fill_it(machine):
    done = subprocess.run([machine, "-m", "harness.offline", "check"], cwd=ROOT,
                          env=bare_environment() | {"PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    for name in ("nnsight", "syrupy", "pydantic-core"):
        assert f"  {name} (" in done.stderr, done.stderr
    assert "make wheelhouse PY=3.12" in done.stderr
    assert "  torch (" not in done.stderr and "  transformers (" not in done.stderr


def test_make_gpu_rehearsal_offline_runs_the_cuda_dry_run_on_the_machines_torch(
        machine, wheelhouse, tmp_path):
    if not (SHARED_CACHE / "hub" / "models--openai-community--gpt2").is_dir():
        pytest.skip(f"the published configs are not in the shared cache: {SHARED_CACHE}")
    out, record = tmp_path / "gpu-rehearsal.json", tmp_path / "offline-environment.json"
    args = f"--dry-run-of cuda --decode-cap 8 --published-cache {SHARED_CACHE} --out {out}"
    done = subprocess.run(["make", "gpu-rehearsal", "OFFLINE=1", f"PYTHON={machine}",
                           f"WHEELHOUSE={wheelhouse}", f"OFFLINE_SITE={tmp_path / 'site'}",
                           f"OFFLINE_RECORD={record}", f"GPU_REHEARSAL_ARGS={args}",
                           "SOURCES=patching"], cwd=ROOT, env=bare_environment(),
                          capture_output=True, text=True, timeout=580)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert f"offline install: {', '.join(WHEELHOUSE)} into" in done.stdout
    ran = json.loads(record.read_text())
    site = (tmp_path / "site").resolve()
    for name in WHEELHOUSE:
        assert ran["packages"][name]["version"] == PINS[name][0]
        assert ran["packages"][name]["location"] == str(site)
    machine_site = machine.parent.parent / "lib" / f"python{PY}" / "site-packages"
    for name in ("torch", "transformers", "pytest"):
        assert ran["packages"][name]["location"] == str(machine_site.resolve())
    assert ran["torch"] and ran["nnsight"] == PINS["nnsight"][0] and ran["python"].startswith(PY)
    summary = json.loads(out.read_text())
    assert summary["ok"], {m: r["errors"] for m, r in summary["sources"]["patching"].items()}
    assert list(summary["sources"]["patching"]) == ["fast", "faithful"]
    assert summary["audit"]["patching"]["device_audit"]


@pytest.mark.parametrize("how", ["-p", "PYTEST_PLUGINS"])
def test_the_plugin_loads_once_beside_its_entry_point(how):
    if not importlib.metadata.entry_points(group="pytest11", name="interp_claims"):
        pytest.skip("this package is not installed here: its entry point is absent")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider",
                           *(["-p", "harness.plugin"] if how == "-p" else []),
                           "tests/test_tiers.py"], cwd=ROOT, capture_output=True, text=True,
                          env=env | ({"PYTEST_PLUGINS": "harness.plugin"} if how != "-p" else {}))
    assert done.returncode == 0 and "collected" in done.stdout, done.stdout + done.stderr
