"""The whole rehearsal (rehearse): each source built, run in each mode within a budget of its own
(source_run.run_source) and deleted, the summary rewritten after each step, so a rehearsal cut
off keeps what it ran."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Mapping

from harness.profiles import ProfileName
from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from harness.rehearsal.build import DTYPES, build_here, build_in_child
from harness.rehearsal.cap import COUNTED, START_LOAD_S, choose_cap, forward_seconds
from harness.rehearsal.setting import FULL_SIZE_DECODE_CAP, Setting, cpu_dtype
from harness.rehearsal.source_run import run_source

ROOT = Path(__file__).resolve().parents[2]
MIN_SOURCE_SECONDS = 20
# One source at a time (a GPU), the most informative per second first: GPT-2 (small, fast), cot's
# decoding, heads, then lookback's 8B load.
INFORMATIVE = ("patching", "cot", "heads", "lookback")


def scratch_candidates() -> list[Path]:
    """Where a source's model may be written: $TMPDIR, /tmp, /dev/shm, /var/tmp and the
    repository's parent."""
    tmpdir = os.environ.get("TMPDIR")
    return [*([Path(tmpdir)] if tmpdir else []), Path("/tmp"), Path("/dev/shm"), Path("/var/tmp"),
            ROOT.parent]


def choose_scratch(candidates: list[Path], free: Callable[[Path], int] = lambda p:
                   shutil.disk_usage(p).free) -> tuple[Path, dict[str, int]]:
    """The writable candidate with the most free bytes, and each writable one's free bytes."""
    found = {str(p): free(p) for p in candidates if p.is_dir() and os.access(p, os.W_OK | os.X_OK)}
    if not found:
        return Path(tempfile.gettempdir()), {}
    return Path(max(found, key=lambda p: found[p])), found


def write_summary(summary: dict[str, Any], out: Path) -> None:
    """Write `summary` to `out` atomically: a temporary file beside it, renamed over it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=out.parent, prefix=f".{out.name}.",
                                     delete=False) as f:
        json.dump(summary, f, indent=2)
    os.chmod(f.name, 0o644)
    os.replace(f.name, out)


def last_seconds(out: Path, setting: Setting) -> dict[str, float]:
    """Each source's seconds, its build and its runs, in the rehearsal last written to `out` under
    the same setting ({} where there is none)."""
    try:
        last = json.loads(out.read_text())
    except (OSError, ValueError):
        return {}
    if last.get("setting") != json.loads(json.dumps(asdict(setting))):
        return {}
    return {name: last.get("build", {}).get(name, {}).get("wall_seconds", 0)
            + sum(run["seconds"] for run in runs.values())
            for name, runs in last.get("sources", {}).items()}


def run_order(sources: list[str], jobs: int, seconds: Mapping[str, float] | None = None,
              ) -> list[str]:
    """One at a time, the most informative first (INFORMATIVE, then any other); several at once,
    the longest first, so the last to start is the shortest: by the `seconds` each took last time,
    then those it lacks in INFORMATIVE's reverse (the larger first), then any other."""
    rank = {name: i for i, name in enumerate(INFORMATIVE)}
    if jobs == 1:
        return sorted(sources, key=lambda n: rank.get(n, len(rank)))
    seconds = seconds or {}
    return sorted(sources, key=lambda n: (-seconds.get(n, 0), -rank.get(n, -1)))


def planned_cap(name: str, setting: Setting, timeout: float, modes: list[str],
                built: dict[str, Any], before: dict[str, Any] | None) -> tuple[int | None, str]:
    """This run's decode cap and why: the setting's, or where it takes cot's from the plan, the
    largest (up to the setting's) that fits the run's `timeout` in each of `modes` still to run;
    priced by the plan with an assumed start and load before the source's first run, then by what
    its run `before` measured."""
    counted = COUNTED.get(name, {})
    if not (setting.cap_from_plan and setting.published_sizes and counted):
        return setting.decode_cap, f"{setting.decode_cap}: the setting's (--decode-cap or default)"
    t = (before or {}).get("throughput") or {}
    if t.get("forwards") and t.get("step_seconds"):
        start_load = max(0.0, before["seconds"] - t["step_seconds"])
        forward_s = t["step_seconds"] / t["forwards"]
        basis = f"measured by its last run: {forward_s * 1000:.1f} ms a forward"
    else:
        dtype = DTYPES[get_profile("rehearsal").models[name].dtype]
        start_load = START_LOAD_S
        forward_s, basis = forward_seconds(built["parameters"], dtype.itemsize, built.get("gpu"))
        basis = f"the plan: {basis}; start and load assumed"
    cap, why = choose_cap(timeout, start_load, forward_s,
                          {m: counted[m] for m in modes if m in counted},
                          setting.decode_cap or FULL_SIZE_DECODE_CAP)
    return cap, f"{why} ({basis})"


def rehearse(sources: list[str], setting: Setting, published_cache: Path, out: Path,
             budget: int, jobs: int = 1, deadline_s: float | None = None,
             runs: Path | None = None) -> dict[str, Any]:
    """Rehearse `sources` in run_order (by the seconds each took in the rehearsal last written to
    `out`), `jobs` at a time: each built (in this process where the setting builds here, else in
    one of its own; within the setting's build budget) into the scratch directory with the most
    free space, run in each of its modes and then the separate audit pass where the setting has
    one, each within `budget` seconds of its own, then deleted. Nothing starts past `deadline_s` (it is recorded as
    not run). Each run's log, results and streamed tests go under `runs` (else a temporary
    folder); the summary (sources -> name -> mode -> run) is rewritten to `out` after each build
    and run, and says `finished` at the end."""
    start = time.perf_counter()
    end = start + deadline_s if deadline_s else float("inf")
    order = run_order(sources, jobs, last_seconds(out, setting))
    # Always the rehearsal profile: random weights are judged by no published value. At full
    # size it takes the published sizes.
    profile = ProfileName.REHEARSAL.value
    specs = {name: get_profile(profile).models[name] for name in sources}
    missing = [f"{name}: {snapshot_dir(published_cache, spec) / 'config.json'}"
               for name, spec in specs.items() if spec.hf_id
               and not (snapshot_dir(published_cache, spec) / "config.json").is_file()]
    summary: dict[str, Any] = {"device": setting.device, "full_size": setting.full_size,
                               "profile": profile, "setting": asdict(setting),
                               "budget_per_source_and_mode_s": budget,
                               "build_budget_s": setting.build_budget_s, "deadline_s": deadline_s,
                               "published_cache": str(published_cache), "gpu": None,
                               "finished": False, "ok": False}
    if missing:
        summary |= {"ok": None, "finished": True, "skipped": "the published configs and "
                    f"tokenizers are not in the cache: {'; '.join(missing)}"}
        write_summary(summary, out)
        return summary
    scratch, free = choose_scratch(scratch_candidates())
    dtype, summary["dtype"] = (cpu_dtype() if setting.device == "cpu" else (None, "declared"))
    summary |= {"scratch": {"path": str(scratch), "free_bytes": free}, "jobs": jobs, "order": order,
                "build": {}, "sources": {}, "audit": {}, "decode_caps": {}, "not_run": []}
    lock = threading.Lock()

    def save(value: Any, *path: str) -> None:
        """Set summary[path[0]][path[1]]... to `value` (a list there: append it), and rewrite it."""
        with lock:
            place = summary
            for key in path[:-1]:
                place = place.setdefault(key, {})
            if isinstance(place.get(path[-1]), list):
                place[path[-1]].append(value)
            else:
                place[path[-1]] = value
            write_summary(summary, out)

    def one(name: str, folder: Path) -> None:
        left = end - time.perf_counter()
        if left < 2 * MIN_SOURCE_SECONDS:
            save(f"{name}: {left:.0f} s of the rehearsal's {deadline_s} s left; not built",
                 "not_run")
            return
        with tempfile.TemporaryDirectory(prefix=f"rehearsal-{name}-", dir=scratch) as tmp:
            cache = Path(tmp) / "hf"
            budget_s = min(setting.build_budget_s, left)
            built = (build_here(name, published_cache, cache, setting.full_size, setting.device,
                                budget_s) if setting.builds_here else
                     build_in_child(name, published_cache, cache, setting.full_size,
                                    setting.device, budget_s, folder / name / "build.log")
                     ) | {"scratch": tmp}
            save(built, "build", name)
            if "error" in built:
                return
            if built.get("gpu"):
                save(built["gpu"], "gpu")
            passes = [(mode, setting.audit == "inline") for mode in setting.modes]
            passes += [(setting.modes[-1], True)] if setting.separate_audit else []
            before = None
            for i, (mode, audit) in enumerate(passes):
                audit_pass = audit and setting.separate_audit
                label = "audit" if audit_pass else mode
                left = end - time.perf_counter()
                timeout = min(budget, left)
                if timeout < MIN_SOURCE_SECONDS:
                    save(f"{name} ({label}): {left:.0f} s of the rehearsal's {deadline_s} s left",
                         "not_run")
                    continue
                published = (setting.published_sizes and not audit_pass
                             and name not in setting.own_sizes)
                cap = setting.decode_cap
                if published:
                    later = [m for m, a in passes[i:] if not (a and setting.separate_audit)]
                    cap, why = planned_cap(name, setting, timeout, later, built, before)
                    if name in COUNTED:
                        save({"cap": cap, "why": why}, "decode_caps", name, mode)
                # The separate audit pass is short: the rehearsal profile's own sizes.
                run = run_source(name, cache, profile, folder / name / label, timeout, mode,
                                 dtype, published, cap, audit)
                before = before if audit_pass else run
                save(run, *(("audit", name) if audit_pass else ("sources", name, mode)))

    with tempfile.TemporaryDirectory(prefix="rehearsal-runs-") as tmp:
        folder = runs or Path(tmp)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(lambda name: one(name, folder), order))
    summary["sources"] = {n: summary["sources"][n] for n in sources if n in summary["sources"]}
    summary["build_seconds"] = round(sum(b.get("wall_seconds", 0)
                                         for b in summary["build"].values()), 1)
    runs_all = [s for r in summary["sources"].values() for s in r.values()]
    runs_all += list(summary["audit"].values())
    summary["holes"] = sorted({h for r in runs_all for h in r["holes"]})
    summary["ok"] = bool(runs_all) and not summary["not_run"] and all(
        r["ok"] for r in runs_all) and not any("error" in b for b in summary["build"].values())
    summary["finished"] = True
    summary["seconds"] = round(time.perf_counter() - start, 1)
    write_summary(summary, out)
    return summary
