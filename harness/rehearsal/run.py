"""The rehearsal's runs: how it runs on each device (Setting), one source's run in a pytest
process of its own (run_source), and the whole rehearsal with its summary (rehearse): each source
built, run in each mode within a budget of its own and deleted, the summary rewritten after each
step, so a rehearsal cut off keeps what it ran."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from harness.catalogue import ORGANISMS_ONLY
from harness.profiles import ProfileName
from harness.reporting.record import RecordBuilder, RunRecord, RunStatus, read_record
from harness.registry import get_profile
from harness.models.resources import snapshot_dir
from harness.rehearsal.build import DTYPES, build_here, build_in_child
from harness.rehearsal.cap import COUNTED, START_LOAD_S, choose_cap, forward_seconds
from harness.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[2]
MIN_SOURCE_SECONDS = 20
# The full-size rehearsal's decode steps stop here at most: on random weights every step decodes
# to its cap, and faithful mode at the published caps (20 problems x 2000 tokens, one at a time)
# alone would outlast the budget; cot's cap is chosen below it from the plan (cap.py), and the
# full-size decode time is extrapolated and labelled so.
FULL_SIZE_DECODE_CAP = 128
KILL_GRACE_S = 15  # after the interrupt, the seconds a cut-off run has to write its record
STREAM = "INTERP_CLAIMS_STREAM"  # where harness.rehearsal.child streams each finished test
# One source at a time (a GPU), the most informative per second first: GPT-2 (small, fast), cot's
# decoding, heads, then lookback's 8B load.
INFORMATIVE = ("patching", "cot", "heads", "lookback")
# The CUDA dry run takes these at the rehearsal profile's own sizes: their published sizes (every
# family, block and head; lookback's 7.8 M prompt tokens) take many minutes even narrowed.
DRY_RUN_OWN_SIZES = ("heads", "lookback")
# Skips that say nothing of the model's behaviour: the catalogue runs on organisms only, and
# TransformerLens converts the weights into its own published-width GPT-2. Any other skipped or
# blocked test is a hole in the rehearsal, and fails it.
EXPECTED_SKIPS = (ORGANISMS_ONLY, "the TransformerLens cross-check")


def decode_seconds(steps: dict[str, dict[str, Any]]) -> float:
    """The steps' time spent decoding: each step's seconds times its decode forwards' share of
    its forwards (forwards less prefills)."""
    return sum(s["seconds"] * (s["forwards"] - s.get("prefills", 0)) / s["forwards"]
               for s in steps.values() if s["forwards"])


def throughput(steps: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The counted work of a run's steps and the positions and generated tokens per second of
    the time spent in them."""
    seconds = sum(s["seconds"] for s in steps.values())
    total = {k: sum(s.get(k, 0) for s in steps.values()) for k in ("forwards", "prefills",
                                                                     "prompt_tokens",
                                                                     "decode_tokens", "padding")}
    positions = total["prompt_tokens"] + total["decode_tokens"] + total["padding"]
    return {**total, "step_seconds": round(seconds, 2),
            "decode_seconds": round(decode_seconds(steps), 2),
            "positions_per_s": round(positions / seconds, 1) if seconds else None,
            "generated_per_s": round(total["decode_tokens"] / seconds, 1) if seconds else None}


def cpu_dtype() -> tuple[str | None, str]:
    """The CPU rehearsal's dtype: the declared bf16 where the CPU does bf16 arithmetic natively,
    else float32 (emulated bf16 runs several times slower), with the reason."""
    import torch

    if torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return None, "the declared dtype: this CPU does bf16 natively"
    return "float32", ("float32: this CPU has no native bf16 arithmetic (oneDNN reports none), "
                       "where bf16 runs several times slower; bf16 is rehearsed on CUDA "
                       "(make gpu-rehearsal) and on CPUs that have it")


@dataclass(frozen=True)
class Setting:
    """How a rehearsal runs. CPU (`make test`): narrowed models, the rehearsal profile's own
    sizes, one mode, the device audit inline. CUDA (`make gpu-rehearsal`): full-size models drawn
    on the GPU, the published sizes with every decode step capped (cot's cap chosen from the plan
    so that each mode fits its budget; the full-size decode time extrapolated and labelled so),
    fast then faithful, timed without the audit, which runs after as a short pass of its own at
    the rehearsal profile's sizes."""

    device: str
    full_size: bool  # the published widths (else narrowed: build.narrowed)
    published_sizes: bool
    modes: tuple[str, ...]
    decode_cap: int | None  # every decode step's cap; with cap_from_plan, the most cot's may be
    audit: str  # "inline": the timed runs under the device audit; "separate": a pass of its own
    # after them, at the rehearsal profile's sizes; "none"
    budget_s: int  # each source's seconds in each mode (and the audit pass), the build not counted
    build_budget_s: int = 120  # each source's build's seconds at most
    cap_from_plan: bool = False  # cot's cap chosen from the plan and the budget (cap.py)
    own_sizes: tuple[str, ...] = ()  # sources run at the rehearsal profile's sizes regardless

    @property
    def separate_audit(self) -> bool:
        return self.audit == "separate"

    @property
    def builds_here(self) -> bool:
        """Whether each model is built in the rehearsal's own process (narrowed, on the CPU) rather
        than one of its own (full size: its GPU memory goes back when that process ends)."""
        return self.device == "cpu" and not self.full_size

    @property
    def jobs(self) -> int:
        """Sources run at once: one per CPU on the CPU (each on one thread), one on a GPU."""
        return (os.cpu_count() or 1) if self.device == "cpu" else 1

    @classmethod
    def for_device(cls, device: str) -> "Setting":
        if device == "cpu":
            return cls("cpu", False, False, ("faithful",), None, "inline", 240)
        return cls(device, True, True, ("fast", "faithful"), FULL_SIZE_DECODE_CAP, "separate", 120,
                   build_budget_s=300, cap_from_plan=True)

    def dry_run(self, decode_cap: int) -> "Setting":
        """This setting's code path on the CPU, narrowed, with decode steps capped at
        `decode_cap` and DRY_RUN_OWN_SIZES at their own sizes: the CUDA rehearsal's dry run."""
        # The CPU's budget, not the GPU's: it checks the path, not the time, and CPUs here differ
        # about 2x in speed (lookback's fast run took 125 s of the GPU's 120 on a busy one).
        return replace(self, device="cpu", full_size=False, decode_cap=decode_cap,
                       cap_from_plan=False, own_sizes=DRY_RUN_OWN_SIZES,
                       budget_s=Setting.for_device("cpu").budget_s)


def streamed(path: Path) -> RunRecord:
    """A run's record from the tests it streamed as each finished (a run cut off before it wrote
    its own): a line cut short by the kill is dropped."""
    builder = RecordBuilder({"models": {}})
    for line in path.read_text().splitlines() if path.is_file() else []:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if "entry" in item:
            builder.add(item["entry"])
        elif "work" in item:
            builder.add_work(item["work"])
    return RunRecord(builder.env, RunStatus(completed=False), tuple(builder.entries), builder.work)


def holes(tests: list[dict[str, Any]]) -> list[str]:
    """The tests skipped or blocked for a reason the rehearsal does not expect (EXPECTED_SKIPS):
    what random weights could not do, where the rehearsal should have run it."""
    return [f"{t['id']}: {t['verdict']}: {t['message']}" for t in tests
            if t["verdict"] in (Verdict.SKIPPED, Verdict.BLOCKED)
            and not t["message"].startswith(EXPECTED_SKIPS)]


def run_ok(run: dict[str, Any]) -> bool:
    """A run passes when it exited cleanly in time, no test errored or failed, no test is a hole,
    and some test ran to a verdict."""
    return (run["exit_status"] == 0 and not run["timed_out"] and not run["errors"]
            and not run["holes"] and run["ran"] > 0)


def run_source(name: str, cache: Path, profile: str, folder: Path, timeout: float,
               mode: str = "faithful", dtype: str | None = None, published_sizes: bool = False,
               decode_cap: int | None = None, audit: bool = True) -> dict[str, Any]:
    """Run claims/<name> on `profile` in `mode` against `cache` (with the published sizes, or
    the profile's own, each decode step capped at `decode_cap`), under the device audit or not,
    in a pytest process of its own: its output to folder/log.txt, each test's result to
    folder/tests.jsonl as it finishes; past `timeout` seconds it is interrupted, then killed
    KILL_GRACE_S later, and keeps what it ran. Its tests, time, peak memory and throughput."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    results, stream, log = folder / "results.json", folder / "tests.jsonl", folder / "log.txt"
    env = os.environ | {"HF_HOME": str(cache), "HF_HUB_OFFLINE": "1", STREAM: str(stream)}
    args = [sys.executable, "-m", "pytest", f"claims/{name}", f"--claims-profile={profile}",
            f"--mode={mode}", "-p", "no:cacheprovider", "-p", "harness.rehearsal.child", "-q",
            f"--results={results}", "--no-page",
            *(["--device-audit"] if audit else []),
            *([f"--rehearsal-dtype={dtype}"] if dtype else []),
            *(["--rehearsal-sizes=published"] if published_sizes else []),
            *([f"--rehearsal-decode-cap={decode_cap}"] if decode_cap else [])]
    start = time.perf_counter()
    interrupted = killed = None
    with log.open("w") as output:
        proc = subprocess.Popen(args, env=env, stdout=output, stderr=subprocess.STDOUT)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # this child's own resource usage
            if pid:
                break
            now = time.perf_counter()
            if interrupted is None and now - start > timeout:
                proc.send_signal(signal.SIGINT)  # pytest writes what it ran, then exits
                interrupted = now
            elif interrupted and not killed and now - interrupted > KILL_GRACE_S:
                proc.kill()
                killed = now
            time.sleep(0.2)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = round(time.perf_counter() - start, 1)
    record = read_record(results) if results.exists() else streamed(stream)
    steps = record.work.get(name, {})
    tests = [{k: getattr(t, k) for k in ("id", "verdict", "duration", "peak_gpu_bytes",
                                         "message", "forced", "holds_check")}
             for t in record.in_order]
    run = {
        "throughput": throughput(steps),
        "seconds": seconds, "exit_status": proc.returncode, "timed_out": interrupted is not None,
        "killed": killed is not None,
        "record": ("its run record" if results.exists() else
                   f"the {len(tests)} tests it streamed as each finished (it wrote no record)"),
        "max_rss_bytes": usage.ru_maxrss * 1024,
        "peak_gpu_bytes": max((t.peak_gpu_bytes or 0 for t in record.tests), default=0),
        "device_audit": audit, "decode_cap": decode_cap,
        **({} if audit else extrapolated(name, seconds, decode_seconds(steps), decode_cap)),
        "tests": tests,
        "ran": sum(Verdict(t["verdict"]).ran for t in tests),
        "forced": sum(bool(t["forced"]) for t in tests),
        "errors": [f"{t.id}: {t.verdict}: {t.message}" for t in record.in_order if t.verdict.fails],
        "skipped": [f"{t['id']}: {t['verdict']}: {t['message']}" for t in tests
                    if t["verdict"] in (Verdict.SKIPPED, Verdict.BLOCKED)],
        "holes": holes(tests),
        "log": str(log),
        "output_tail": log.read_text(errors="replace")[-3000:],
    }
    return run | {"ok": run_ok(run)}


def extrapolated(name: str, seconds: float, decoding: float,
                 decode_cap: int | None) -> dict[str, Any]:
    """For a run whose decode steps were capped: an upper bound on the uncapped run's time, its
    decoding seconds scaled by the longest published decode over the cap (random weights decode
    every step to its cap, and a step's cost grows with its length); process start, model load
    and every other forward as measured."""
    sizes = get_profile("published").sizes.get(name)
    longest = sizes.longest_decode if sizes is not None else 0
    if not decode_cap or not longest or longest <= decode_cap:
        return {}
    factor = longest / decode_cap
    return {"extrapolated_seconds": round(seconds + decoding * (factor - 1), 1),
            "extrapolated": f"upper bound, not measured: {seconds} s, of which {decoding:.1f} s "
                            f"decoding x {longest}/{decode_cap} (the longest published decode "
                            f"over the cap); start, load and other forwards as measured"}


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
