"""The run record: one entry per claim test plus the environment, written to reports/results.json."""
from __future__ import annotations

import datetime as dt
import json
import platform
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.backends import Backend, host
from harness.verdicts import VERDICT_NAMES

SCHEMA_VERSION = 3  # 3: the mode, each step's counted work and its check against the ledger

ENTRY_KEYS = ("nodeid", "id", "kind", "source", "verdict", "outcome", "message", "measured",
              "published", "provenance", "criterion", "criterion_check", "snapshot", "drift",
              "drift_detail", "tolerance", "requires", "decisions", "statement", "section", "needs",
              "duration", "mode")
DRIFTS = (None, "no drift", "drifted", "unpinned")


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
        "commit": git_commit(root),
        "started": started.isoformat(timespec="seconds"),
        "models": {},
    }


@dataclass
class RunRecord:
    """Collects entries during a session and writes them, with the environment, as JSON."""

    env: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    run: dict[str, Any] = field(default_factory=lambda: {"completed": False, "exit_status": None,
                                                         "not_run": []})
    work: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    work_check: dict[str, dict[str, Any]] = field(default_factory=dict)

    def finish(self, *, exit_status: int, interrupted: bool, not_run: list[str]) -> None:
        """Whether every selected test ran to its end: an interrupted run is partial."""
        self.run = {"completed": not interrupted and not not_run, "exit_status": exit_status,
                    "interrupted": interrupted, "not_run": not_run}

    def add(self, entry: dict[str, Any]) -> None:
        model = entry.pop("model", None)
        if model:
            self.env["models"][model["source"]] = model
        self.entries.append(entry)

    def add_work(self, counted: dict[str, Any]) -> None:
        """One experiment fixture's counted model work (harness.work), under its source. A step
        counted twice (computed on two workers) adds up, so the ledger check sees it."""
        source, step = counted.pop("source"), counted.pop("step")
        before = self.work.setdefault(source, {}).get(step)
        if before is not None:
            counted = {k: before[k] + v if isinstance(v, (int, float)) else f"{before[k]},{v}"
                       for k, v in counted.items()}
        self.work[source][step] = counted

    def as_json(self, finished: dt.datetime) -> dict[str, Any]:
        started = dt.datetime.fromisoformat(self.env["started"])
        env = dict(self.env, duration_s=round((finished - started).total_seconds(), 1))
        counts: dict[str, dict[str, int]] = {}
        for e in self.entries:
            for key in (e["source"], "all"):
                counts.setdefault(key, {}).setdefault(e["verdict"], 0)
                counts[key][e["verdict"]] += 1
        return {"schema": SCHEMA_VERSION, "environment": env, "run": self.run, "counts": counts,
                "work": {s: dict(sorted(steps.items())) for s, steps in sorted(self.work.items())},
                "work_check": self.work_check,
                "tests": sorted(self.entries, key=lambda e: (e["source"], e["kind"] != "anchor",
                                                             e["id"]))}

    def write(self, path: Path, finished: dt.datetime) -> dict[str, Any]:
        data = self.as_json(finished)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n")
        return data


def status_table(data: dict[str, Any]) -> list[str]:
    """One line per claim for the terminal: verdict, id, and the message if any."""
    lines = []
    if not data.get("run", {}).get("completed", True):
        lines.append(f"PARTIAL RUN: {len(data['run']['not_run'])} selected tests never ran")
    for e in data["tests"]:
        msg = f"  {e['message']}" if e["message"] and (e["verdict"] in (
            "blocked", "skipped", "error", "not replicated", "anchor failed") or e.get("drift") == "drifted") else ""
        status = e["verdict"] + (f" · {e['drift']}" if e.get("drift") in ("drifted", "unpinned")
                                 else "")
        if e.get("generalisation"):
            msg = f"  (generalisation test on {e['generalisation']}){msg}"
        lines.append(f"{status:<26} {e['kind']:<11} {e['id']}{msg}"[:220])
    summary = ", ".join(f"{n} {v}" for v, n in sorted(data["counts"].get("all", {}).items()))
    lines.append(f"claims: {summary or 'none run'} (profile {data['environment']['profile']})")
    return lines


def validate(data: dict[str, Any]) -> list[str]:
    """Schema problems in a results.json document (empty when it is well formed)."""
    problems = []
    for key in ("schema", "environment", "run", "counts", "tests"):
        if key not in data:
            problems.append(f"missing top-level key {key!r}")
    env = data.get("environment", {})
    for key in ("profile", "mode", "python", "torch", "transformers", "nnsight", "device", "cuda",
                "commit", "started", "models", "duration_s"):
        if key not in env:
            problems.append(f"environment lacks {key!r}")
    verdicts = set(VERDICT_NAMES)
    for e in data.get("tests", []):
        for key in ENTRY_KEYS:
            if key not in e:
                problems.append(f"{e.get('id', '?')}: lacks {key!r}")
        if e.get("verdict") not in verdicts:
            problems.append(f"{e.get('id', '?')}: unknown verdict {e.get('verdict')!r}")
        if e.get("snapshot") not in (None, "exact", "within tolerance", "outside", "new"):
            problems.append(f"{e.get('id', '?')}: unknown snapshot comparison {e.get('snapshot')!r}")
        if e.get("drift") not in DRIFTS:
            problems.append(f"{e.get('id', '?')}: unknown drift {e.get('drift')!r}")
    for key in ("completed", "exit_status", "not_run"):
        if key not in data.get("run", {}):
            problems.append(f"run lacks {key!r}")
    return problems
