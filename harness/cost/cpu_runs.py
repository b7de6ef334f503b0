"""A published model's time on the CPU (issue 48): the plan prices GPUs, and beside them records,
for each source whose published model loads on the CPU (GPT-2), what its steps took in the last
published run on a CPU that `make replicate` left in reports/, or why there is none."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.profiles import ModelSpec
from harness.reporting.record import RunRecord, read_record

# Where a published run's record lies: `make replicate`'s published run, then a plain
# `pytest --claims-profile=published` run's.
RECORDS = ("reports/replicate/published/results.json", "reports/results.json")
NOT_MEASURED = ("no published run on a CPU is on record here: `make replicate` measures it on a "
                "machine with {model}'s weights in the Hugging Face cache or the hub in reach")


def _cpu_run(path: Path, source: str) -> RunRecord | None:
    """The record at `path` where it is a published run on the CPU that measured `source`."""
    try:
        record = read_record(path)
    except (OSError, ValueError):
        return None
    env, steps = record.environment, record.work.get(source)
    chosen = ((env.get("selection") or {}).get("sources") or {}).get(source)
    published = env.get("profile") == "published" or chosen == "published"
    on_cpu = str(env.get("device", "")).startswith("cpu")
    return record if published and on_cpu and steps else None


def last_run(root: Path, source: str, spec: ModelSpec) -> dict[str, Any] | None:
    """For a published model declared on the CPU: the seconds its steps took in the last published
    CPU run on record, with the run's mode, machine and threads; else why there is none. None for a
    model declared on another device."""
    if spec.device != "cpu":
        return None
    for relative in RECORDS:
        record = _cpu_run(root / relative, source)
        if record is None:
            continue
        env, steps = record.environment, record.work[source]
        return {"seconds": round(sum(s.get("seconds") or 0 for s in steps.values()), 1),
                "steps": len(steps), "mode": env.get("mode"), "device": env.get("device"),
                "cpu_threads": env.get("cpu_threads"), "torch": env.get("torch"),
                "commit": env.get("commit"), "started": env.get("started"), "record": relative}
    return {"seconds": None, "why": NOT_MEASURED.format(model=spec.hf_id)}


def line(cpu: dict[str, Any] | None) -> str | None:
    """The plan table's line for it: the measured seconds and where, or why none."""
    if cpu is None:
        return None
    if cpu["seconds"] is None:
        return f"  on the CPU: {cpu['why']}"
    threads = f", {cpu['cpu_threads']} threads" if cpu.get("cpu_threads") else ""
    return (f"  on the CPU: {cpu['seconds']:.1f} s of steps measured ({cpu['mode']} mode, "
            f"{cpu['device']}{threads}; {cpu['record']}, {cpu['started']})")
