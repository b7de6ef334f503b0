"""One source's rehearsal run: claims/<name> in a pytest process of its own, within a budget, its
tests streamed as each finishes (so a run cut off keeps what it ran), and what the run says of
the model's work, its time and its holes."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness.catalogue import ORGANISMS_ONLY
from harness.registry import get_profile
from harness.rehearsal.child import STREAM
from harness.reporting.record import RecordBuilder, RunRecord, RunStatus, read_record
from harness.verdicts import Verdict

KILL_GRACE_S = 15  # after the interrupt, the seconds a cut-off run has to write its record
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

