"""The run record: one entry per claim test plus the environment block (environment.py), written
to reports/results.json."""
from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping

from harness.verdicts import Comparison, Drift, Verdict

SCHEMA_VERSION = 3  # 3: the mode, each step's counted work and its check against the ledger
REQUIRED = {"schema": 3}  # a field results.json has carried since schema 3 (validate checks it)


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One test's line of the run record: its declaration, verdict, measured values, drift and
    where it ran. Older records lack some fields, which then take their defaults."""

    nodeid: str = field(default="", metadata=REQUIRED)
    id: str = field(metadata=REQUIRED)
    kind: str = field(default="claim", metadata=REQUIRED)
    source: str = field(default="", metadata=REQUIRED)
    statement: str = field(default="", metadata=REQUIRED)
    section: str = field(default="", metadata=REQUIRED)
    published: dict[str, Any] = field(default_factory=dict, metadata=REQUIRED)
    provenance: str = field(default="", metadata=REQUIRED)
    criterion: str = field(default="", metadata=REQUIRED)
    requires: list[str] = field(default_factory=list, metadata=REQUIRED)
    decisions: list[str] = field(default_factory=list, metadata=REQUIRED)
    needs: str = field(default="", metadata=REQUIRED)
    verdict: Verdict = field(metadata=REQUIRED)
    outcome: str = field(default="passed", metadata=REQUIRED)
    message: str = field(default="", metadata=REQUIRED)
    measured: Any = field(default=None, metadata=REQUIRED)
    criterion_check: dict[str, Any] | None = field(default=None, metadata=REQUIRED)
    holds_check: dict[str, Any] | None = None
    forced: list[str] | None = None
    known_answer: dict[str, Any] | None = None
    snapshot: Comparison | None = field(default=None, metadata=REQUIRED)
    drift: Drift | None = field(default=None, metadata=REQUIRED)
    drift_detail: list[str] = field(default_factory=list, metadata=REQUIRED)
    tolerance: dict[str, Any] | None = field(default=None, metadata=REQUIRED)
    sensitivity: list[dict[str, Any]] | None = None  # what its criterion could detect (issue 47)
    null_check: dict[str, Any] | None = None  # whether its criterion accepts its declared null
    duration: float = field(default=0.0, metadata=REQUIRED)
    headline: dict[str, Any] | None = None
    peak_gpu_bytes: int | None = None
    mode: str = field(default="faithful", metadata=REQUIRED)
    generalisation: str | None = None
    gpu: str | None = None
    worker: str | None = None
    device_audit: list[str] | None = None
    organism_note: str | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        known = {f.name for f in fields(cls)} & data.keys()
        values = {k: data[k] for k in known}
        values["verdict"] = Verdict(data["verdict"])
        values["drift"] = Drift(data["drift"]) if data.get("drift") else None
        values["snapshot"] = Comparison(data["snapshot"]) if data.get("snapshot") else None
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


ENTRY_KEYS = tuple(f.name for f in fields(Entry) if f.metadata == REQUIRED)


@dataclass(frozen=True)
class RunStatus:
    """Whether every selected test ran to its end: an interrupted run is partial."""

    completed: bool = True  # schema 1 records no run block: those runs completed
    exit_status: int | None = None
    interrupted: bool = False
    not_run: tuple[str, ...] = ()

    @property
    def partial(self) -> bool:
        return not self.completed

    def to_json(self) -> dict[str, Any]:
        return {"completed": self.completed, "exit_status": self.exit_status,
                "interrupted": self.interrupted, "not_run": list(self.not_run)}


@dataclass(frozen=True)
class RunRecord:
    """A run: the environment block, whether it completed, each test's entry and each source's
    counted work. JSON only at the edge: `from_json` and `to_json`."""

    environment: Mapping[str, Any]
    run: RunStatus
    tests: tuple[Entry, ...]
    work: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    work_check: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    schema: int = SCHEMA_VERSION

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        """Tests per verdict, per source and over all."""
        counts: dict[str, dict[str, int]] = {}
        for e in self.tests:
            for key in (e.source, "all"):
                counts.setdefault(key, {}).setdefault(e.verdict.value, 0)
                counts[key][e.verdict.value] += 1
        return counts

    @property
    def started(self) -> str | None:
        return self.environment.get("started")

    @property
    def in_order(self) -> list[Entry]:
        """The entries by source, its findings first (what a reader came for), then its anchors,
        each by id."""
        return sorted(self.tests, key=lambda e: (e.source, e.kind == "anchor", e.id))

    def entry(self, claim_id: str) -> Entry | None:
        return next((e for e in self.tests if e.id == claim_id), None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRecord:
        run = data.get("run") or {}
        return cls(environment=data.get("environment", {}),
                   run=RunStatus(run.get("completed", True), run.get("exit_status"),
                                 run.get("interrupted", False), tuple(run.get("not_run", ()))),
                   tests=tuple(Entry.from_json(t) for t in data.get("tests", [])),
                   work=data.get("work", {}), work_check=data.get("work_check", {}),
                   schema=data.get("schema", SCHEMA_VERSION))

    def to_json(self) -> dict[str, Any]:
        return {"schema": self.schema, "environment": dict(self.environment),
                "run": self.run.to_json(), "counts": self.counts,
                "work": {s: dict(sorted(steps.items())) for s, steps in sorted(self.work.items())},
                "work_check": dict(self.work_check),
                "tests": [e.to_json() for e in self.in_order]}


def crossing(entry: Entry, model: Mapping[str, Any] | None) -> dict[str, Any]:
    """A test's entry, with the model its source loaded, as plain JSON: what crosses from an
    xdist worker or a rehearsal's pytest run to the process that keeps the record."""
    return json.loads(json.dumps({**entry.to_json(), "model": model}, default=str))


def read_record(path: Path) -> RunRecord:
    return RunRecord.from_json(json.loads(path.read_text()))


@dataclass
class RecordBuilder:
    """Collects a session's entries and counted work as they arrive, then makes its record."""

    env: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    work: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    work_check: dict[str, dict[str, Any]] = field(default_factory=dict)
    run: RunStatus = RunStatus(completed=False)

    def finish(self, *, exit_status: int, interrupted: bool, not_run: list[str]) -> None:
        """Whether every selected test ran to its end: an interrupted run is partial."""
        self.run = RunStatus(not interrupted and not not_run, exit_status, interrupted,
                             tuple(not_run))

    def add(self, raw: Mapping[str, Any]) -> None:
        """One test's entry as it crossed from another process (`crossing`)."""
        raw = dict(raw)
        model = raw.pop("model", None)
        self.add_entry(Entry.from_json(raw), model)

    def add_entry(self, entry: Entry, model: Mapping[str, Any] | None) -> None:
        """One test's entry; the model its source loaded (if any) goes to the environment."""
        if model:
            self.env["models"][model["source"]] = model
        self.entries.append(entry)

    def add_work(self, counted: dict[str, Any]) -> None:
        """One experiment fixture's counted model work (harness.models.work), under its source. A step
        counted twice (computed on two workers) adds up, so the ledger check sees it."""
        source, step = counted.pop("source"), counted.pop("step")
        before = self.work.setdefault(source, {}).get(step)
        if before is not None:
            counted = {k: before[k] + v if isinstance(v, (int, float)) else f"{before[k]},{v}"
                       for k, v in counted.items()}
        self.work[source][step] = counted

    def record(self, finished: dt.datetime) -> RunRecord:
        started = dt.datetime.fromisoformat(self.env["started"])
        env = dict(self.env, duration_s=round((finished - started).total_seconds(), 1))
        return RunRecord(env, self.run, tuple(self.entries), self.work, self.work_check)

    def write(self, path: Path, finished: dt.datetime) -> RunRecord:
        """Write the record whole or not at all: a run killed mid-write leaves no half document."""
        record = self.record(finished)
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            # default=str: a value JSON has no type for is written as its text, as when it
            # crossed from a worker (`crossing`), rather than losing the whole record
            part.write_text(json.dumps(record.to_json(), indent=2, default=str) + "\n")
            part.replace(path)
        finally:
            part.unlink(missing_ok=True)
        return record


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
    for e in data.get("tests", []):
        name = e.get("id", "?")
        problems += [f"{name}: lacks {key!r}" for key in ENTRY_KEYS if key not in e]
        for key, kind in (("verdict", Verdict), ("snapshot", Comparison), ("drift", Drift)):
            if e.get(key) not in {None, *kind} or (key == "verdict" and e.get(key) is None):
                problems.append(f"{name}: unknown {key} {e.get(key)!r}")
    problems += [f"run lacks {key!r}" for key in ("completed", "exit_status", "not_run")
                 if key not in data.get("run", {})]
    return problems
