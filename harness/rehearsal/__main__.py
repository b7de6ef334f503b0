"""python -m harness.rehearsal: the published code path on seeded random weights of the published
architectures, one source at a time, with time and peak memory per source and per test.

--device cpu (the default; `make test`): narrowed widths, the rehearsal profile and its declared
sizes (float32 where the CPU has no native bf16). --device cuda (`make gpu-rehearsal`): full-size
models, the rehearsal profile with the published sizes and layer indices (no published value
judges random weights), on CUDA in bf16. --modes runs each source in each mode (fast first
on CUDA, where faithful decoding at the published caps can outlast the budget), recording the
work counted and the tokens per second. Either fails on any test that errors or fails."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from harness.profiles import ProfileName, get_profile
from harness.rehearsal.build import build_cache, published_cache_default, snapshot_dir

FAILED = ("error", "not replicated", "anchor failed")
MIN_SOURCE_SECONDS = 20


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


def run_source(name: str, cache: Path, profile: str, work: Path, timeout: int,
               mode: str = "faithful", dtype: str | None = None,
               full_size: bool = False) -> dict[str, Any]:
    """Run claims/<name> on `profile` in `mode` against `cache`; its tests, time, peak memory
    and throughput."""
    results = work / mode / name / "results.json"
    env = os.environ | {"HF_HOME": str(cache), "HF_HUB_OFFLINE": "1"}
    args = [sys.executable, "-m", "pytest", f"claims/{name}", f"--profile={profile}",
            f"--mode={mode}", "-p", "no:cacheprovider", "-q", f"--results={results}",
            "--device-audit", *([f"--rehearsal-dtype={dtype}"] if dtype else []),
            *(["--rehearsal-sizes=published"] if full_size else [])]
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
    record = json.loads(results.read_text()) if results.exists() else {}
    tests = record.get("tests", [])
    return {
        "throughput": throughput(record.get("work", {}).get(name, {})),
        "seconds": seconds, "exit_status": proc.returncode, "timed_out": seconds >= timeout,
        "max_rss_bytes": usage.ru_maxrss * 1024,
        "peak_gpu_bytes": max((t.get("peak_gpu_bytes") or 0 for t in tests), default=0),
        "tests": [{k: t.get(k) for k in ("id", "verdict", "duration", "peak_gpu_bytes", "message",
                                         "forced", "holds_check")} for t in tests],
        "forced": sum(bool(t.get("forced")) for t in tests),
        "errors": [f"{t['id']}: {t['verdict']}: {t['message']}" for t in tests
                   if t["verdict"] in FAILED],
        "output_tail": output[-3000:],
    }


def rehearse(sources: list[str], device: str, published_cache: Path, out: Path,
             budget: int, modes: tuple[str, ...] = ("faithful",), jobs: int = 1) -> dict[str, Any]:
    """Build the random-weight cache for `sources`, run each in each of `modes`, `jobs` sources
    at a time, within what is left of `budget` seconds (a run with no time left is recorded as
    not run), and write the summary to `out`: sources -> name -> mode -> run."""
    deadline = time.perf_counter() + budget
    full_size = device == "cuda"
    # Always the rehearsal profile: random weights are judged by no published value. At full
    # size (CUDA) it takes the published sizes.
    profile = ProfileName.REHEARSAL.value
    specs = {name: get_profile(profile).models[name] for name in sources}
    missing = [f"{name}: {snapshot_dir(published_cache, spec) / 'config.json'}"
               for name, spec in specs.items() if spec.hf_id
               and not (snapshot_dir(published_cache, spec) / "config.json").is_file()]
    summary: dict[str, Any] = {"device": device, "full_size": full_size, "profile": profile,
                               "published_cache": str(published_cache), "gpu": gpu_name(device)}
    if missing:
        summary |= {"ok": None, "skipped": "the published configs and tokenizers are not in the "
                    f"cache: {'; '.join(missing)}"}
    else:
        with tempfile.TemporaryDirectory(prefix="rehearsal-") as tmp:
            cache, start = Path(tmp) / "hf", time.perf_counter()
            built = build_cache(published_cache, cache, specs, full_size=full_size)
            summary["build"] = {name: asdict(b) for name, b in built.items()}
            summary["build_seconds"] = round(time.perf_counter() - start, 1)
            summary["sources"], summary["not_run"] = {}, []
            summary["jobs"] = jobs
            dtype, summary["dtype"] = cpu_dtype() if not full_size else (None, "declared")

            def one(name: str, mode: str) -> None:
                left = int(deadline - time.perf_counter())
                if left < MIN_SOURCE_SECONDS:
                    summary["not_run"].append(f"{name} ({mode}): {left} s of the {budget} s "
                                              "budget left")
                    return
                run = run_source(name, cache, profile, Path(tmp), left, mode, dtype, full_size)
                summary["sources"].setdefault(name, {})[mode] = run

            # The largest models first, so the last to start is the shortest.
            order = sorted(sources, key=lambda n: -built[n].parameters if n in built else 0)
            for mode in modes:
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    list(pool.map(lambda name: one(name, mode), order))
            summary["sources"] = {n: summary["sources"][n] for n in sources
                                  if n in summary["sources"]}
        summary["ok"] = not summary["not_run"] and all(
            s["exit_status"] in (0, 5) and not s["errors"] and not s["timed_out"]
            for runs in summary["sources"].values() for s in runs.values())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    return summary


def main() -> None:
    from harness.sources import registered

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", nargs="+", default=sorted(registered()),
                        choices=sorted(registered()), help="run just these (default: all)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--published-cache", type=Path, default=published_cache_default(),
                        help="an HF_HOME-layout cache with the published configs and tokenizers")
    parser.add_argument("--out", type=Path, default=Path("reports/rehearsal.json"))
    parser.add_argument("--modes", nargs="+", choices=("faithful", "fast"),
                        default=["faithful"], help="the modes to run each source in, in order")
    parser.add_argument("--jobs", type=int, default=None,
                        help="sources run at once (default: the CPU count on --device cpu, where "
                             "each runs on one thread; 1 on CUDA, one GPU)")
    parser.add_argument("--budget", type=int, default=540,
                        help="seconds for the whole rehearsal, build included (default 540)")
    args = parser.parse_args()
    if args.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            sys.exit("--device cuda: no CUDA device here (use --device cpu for the dry run)")
    jobs = args.jobs or (1 if args.device == "cuda" else os.cpu_count() or 1)
    summary = rehearse(args.sources, args.device, args.published_cache, args.out, args.budget,
                       tuple(args.modes), jobs)
    if summary["ok"] is None:
        print(f"rehearsal skipped: {summary['skipped']}")
        return
    for name, runs in summary["sources"].items():
        for mode, s in runs.items():
            verdicts: dict[str, int] = {}
            for t in s["tests"]:
                verdicts[t["verdict"]] = verdicts.get(t["verdict"], 0) + 1
            print(f"{name} ({mode}): {s['seconds']} s, max RSS {s['max_rss_bytes']}, peak GPU "
                  f"{s['peak_gpu_bytes']}, {s['throughput']['positions_per_s']} positions/s, "
                  f"{verdicts}, {s['forced']} on forced rows" + "".join(f"\n  {e}" for e in s["errors"]))
    for line in summary["not_run"]:
        print(f"not run, out of time: {line}")
    print(f"rehearsal {'passed' if summary['ok'] else 'FAILED'}; summary: {args.out}")
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
