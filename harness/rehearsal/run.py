"""The rehearsal's runs: how it runs on each device (Setting), one source's run in a pytest
process of its own (run_source), and the whole rehearsal with its summary (rehearse)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from harness.profiles import ProfileName
from harness.reporting.record import RunRecord, read_record
from harness.sources import get_profile
from harness.models.resources import snapshot_dir
from harness.rehearsal.build import build_cache

MIN_SOURCE_SECONDS = 20
# The full-size rehearsal's decode steps stop here: on random weights every step decodes to its
# cap, and faithful mode at the published caps (20 problems x 2000 tokens, one at a time) alone
# would outlast the budget; the full-size time is extrapolated and labelled so.
FULL_SIZE_DECODE_CAP = 128


def gpu_name(device: str) -> str | None:
    """The CUDA device the rehearsal runs on (what `--plan-calibration` is fitted to)."""
    if device != "cuda":
        return None
    import torch

    return torch.cuda.get_device_name(0)


def throughput(steps: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The counted work of a run's steps and the positions and generated tokens per second of
    the time spent in them."""
    seconds = sum(s["seconds"] for s in steps.values())
    total = {k: sum(s[k] for s in steps.values()) for k in ("forwards", "prompt_tokens",
                                                              "decode_tokens", "padding")}
    positions = total["prompt_tokens"] + total["decode_tokens"] + total["padding"]
    return {**total, "step_seconds": round(seconds, 2),
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
    on the GPU, the published sizes with every decode step capped at `decode_cap` tokens (its
    full-size time extrapolated and labelled so), fast then faithful, timed without the audit,
    which runs after as a short pass of its own at the rehearsal profile's sizes."""

    device: str
    full_size: bool  # the published widths (else narrowed: build.narrowed)
    published_sizes: bool
    modes: tuple[str, ...]
    decode_cap: int | None
    audit: str  # "inline": the timed runs under the device audit; "separate": a pass of its own
    # after them, at the rehearsal profile's sizes; "none"
    budget_s: int  # each pass's seconds, the build not counted

    @property
    def separate_audit(self) -> bool:
        return self.audit == "separate"

    @property
    def jobs(self) -> int:
        """Sources run at once: one per CPU on the CPU (each on one thread), one on a GPU."""
        return (os.cpu_count() or 1) if self.device == "cpu" else 1

    @classmethod
    def for_device(cls, device: str) -> "Setting":
        if device == "cpu":
            return cls("cpu", False, False, ("faithful",), None, "inline", 240)
        return cls(device, True, True, ("fast", "faithful"), FULL_SIZE_DECODE_CAP, "separate", 150)

    def dry_run(self, decode_cap: int) -> "Setting":
        """This setting's code path on the CPU, narrowed, with decode steps capped at
        `decode_cap`: the CUDA rehearsal's dry run."""
        return replace(self, device="cpu", full_size=False, decode_cap=decode_cap)


def run_source(name: str, cache: Path, profile: str, work: Path, timeout: int,
               mode: str = "faithful", dtype: str | None = None, published_sizes: bool = False,
               decode_cap: int | None = None, audit: bool = True) -> dict[str, Any]:
    """Run claims/<name> on `profile` in `mode` against `cache` (with the published sizes, or
    the profile's own, each decode step capped at `decode_cap`), under the device audit or not;
    its tests, time, peak memory and throughput."""
    results = work / ("audit" if audit else mode) / name / "results.json"
    env = os.environ | {"HF_HOME": str(cache), "HF_HUB_OFFLINE": "1"}
    args = [sys.executable, "-m", "pytest", f"claims/{name}", f"--profile={profile}",
            f"--mode={mode}", "-p", "no:cacheprovider", "-q", f"--results={results}",
            *(["--device-audit"] if audit else []),
            *([f"--rehearsal-dtype={dtype}"] if dtype else []),
            *(["--rehearsal-sizes=published"] if published_sizes else []),
            *([f"--rehearsal-decode-cap={decode_cap}"] if decode_cap else [])]
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    output = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own resource usage
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = round(time.perf_counter() - start, 1)
    record = read_record(results) if results.exists() else RunRecord.from_json({})
    tests = record.in_order
    return {
        "throughput": throughput(record.work.get(name, {})),
        "seconds": seconds, "exit_status": proc.returncode, "timed_out": seconds >= timeout,
        "max_rss_bytes": usage.ru_maxrss * 1024,
        "peak_gpu_bytes": max((t.peak_gpu_bytes or 0 for t in tests), default=0),
        "device_audit": audit, "decode_cap": decode_cap,
        **({} if audit else extrapolated(name, seconds, decode_cap)),
        "tests": [{k: getattr(t, k) for k in ("id", "verdict", "duration", "peak_gpu_bytes",
                                              "message", "forced", "holds_check")} for t in tests],
        "forced": sum(bool(t.forced) for t in tests),
        "errors": [f"{t.id}: {t.verdict}: {t.message}" for t in tests if t.verdict.fails],
        "output_tail": output[-3000:],
    }


def extrapolated(name: str, seconds: float, decode_cap: int | None) -> dict[str, Any]:
    """For a run whose decode steps were capped: an upper bound on the uncapped run's time, every
    second scaled by the longest published decode over the cap (random weights decode every step
    to its cap, and a step's cost grows with its length)."""
    sizes = get_profile("published").sizes.get(name)
    longest = getattr(sizes, "longest_decode", None)
    if not decode_cap or not longest or longest <= decode_cap:
        return {}
    factor = longest / decode_cap
    return {"extrapolated_seconds": round(seconds * factor, 1),
            "extrapolated": f"upper bound, not measured: {seconds} s x {longest}/{decode_cap} "
                            f"(the longest published decode over the cap)"}


def rehearse(sources: list[str], setting: Setting, published_cache: Path, out: Path,
             budget: int, jobs: int = 1) -> dict[str, Any]:
    """Build the random-weight cache for `sources` on the setting's device, run each in each of
    its modes, `jobs` sources at a time, each mode within `budget` seconds of its own (the build
    not counted; a run with no time left is recorded as not run), then the separate audit pass
    where the setting has one; write the summary to `out`: sources -> name -> mode -> run."""
    full_size = setting.full_size
    # Always the rehearsal profile: random weights are judged by no published value. At full
    # size it takes the published sizes.
    profile = ProfileName.REHEARSAL.value
    specs = {name: get_profile(profile).models[name] for name in sources}
    missing = [f"{name}: {snapshot_dir(published_cache, spec) / 'config.json'}"
               for name, spec in specs.items() if spec.hf_id
               and not (snapshot_dir(published_cache, spec) / "config.json").is_file()]
    summary: dict[str, Any] = {"device": setting.device, "full_size": full_size,
                               "profile": profile, "setting": asdict(setting),
                               "budget_per_mode_s": budget,
                               "published_cache": str(published_cache),
                               "gpu": gpu_name(setting.device)}
    if missing:
        summary |= {"ok": None, "skipped": "the published configs and tokenizers are not in the "
                    f"cache: {'; '.join(missing)}"}
    else:
        with tempfile.TemporaryDirectory(prefix="rehearsal-") as tmp:
            cache, start = Path(tmp) / "hf", time.perf_counter()
            built = build_cache(published_cache, cache, specs, full_size=full_size,
                                device=setting.device)
            summary["build"] = {name: asdict(b) for name, b in built.items()}
            summary["build_seconds"] = round(time.perf_counter() - start, 1)
            summary["sources"], summary["not_run"], summary["audit"] = {}, [], {}
            summary["jobs"] = jobs
            dtype, summary["dtype"] = (cpu_dtype() if setting.device == "cpu"
                                       else (None, "declared"))
            # The largest models first, so the last to start is the shortest.
            order = sorted(sources, key=lambda n: -built[n].parameters if n in built else 0)

            def one(name: str, mode: str, deadline: float, audit: bool) -> None:
                left = int(deadline - time.perf_counter())
                audit_pass = audit and setting.separate_audit
                if left < MIN_SOURCE_SECONDS:
                    summary["not_run"].append(f"{name} ({'audit' if audit_pass else mode}): "
                                              f"{left} s of the {budget} s budget left")
                    return
                # The separate audit pass is short: the rehearsal profile's own sizes.
                run = run_source(name, cache, profile, Path(tmp), left, mode, dtype,
                                 setting.published_sizes and not audit_pass, setting.decode_cap,
                                 audit)
                if audit_pass:
                    summary["audit"][name] = run
                else:
                    summary["sources"].setdefault(name, {})[mode] = run

            passes = [(mode, setting.audit == "inline") for mode in setting.modes]
            passes += [(setting.modes[-1], True)] if setting.separate_audit else []
            for mode, audit in passes:
                deadline = time.perf_counter() + budget
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    list(pool.map(lambda name, m=mode, d=deadline, a=audit: one(name, m, d, a),
                                  order))
            summary["sources"] = {n: summary["sources"][n] for n in sources
                                  if n in summary["sources"]}
        runs = [s for r in summary["sources"].values() for s in r.values()]
        summary["ok"] = not summary["not_run"] and all(
            s["exit_status"] in (0, 5) and not s["errors"] and not s["timed_out"]
            for s in runs + list(summary["audit"].values()))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    return summary
