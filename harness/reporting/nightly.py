"""The nightly's guards (issues 26 and 36): before the run, CUDA must be usable, or the job fails
saying why (the driver against what the installed torch needs); after it, the run must be
complete, or the job fails: it must have written its record and run to its end (not killed,
interrupted or cut short), some published test must have run (every test skipping is a run that
tested nothing), no test of any kind may have crashed (in setup, call or teardown), no anchor may
have failed, and no finding may be blocked or skipped (a partial replication reads "incomplete"
and names them). A claim that does not replicate is a result, on the page; no guard fails for it,
nor for an inconclusive one, which `complete` names (its criterion cannot tell it from no effect).

    interp-claims nightly preflight
    interp-claims nightly complete reports/results.json
"""
from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from harness.reporting.record import RunRecord, read_record
from harness.verdicts import Verdict

# The oldest Linux driver each CUDA major version runs on, from NVIDIA's CUDA toolkit release
# notes (minor-version compatibility): CUDA 12.x needs 525.60.13, CUDA 13.x needs 580.65.06.
MIN_DRIVER = {12: (525, 60, 13), 13: (580, 65, 6)}


def driver_version(nvidia_smi: str = "nvidia-smi") -> str | None:
    """The driver version nvidia-smi reports, or None where it is missing or fails."""
    try:
        done = subprocess.run([nvidia_smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.split()
    return lines[0] if done.returncode == 0 and lines else None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def cuda_problem(available: bool, torch_cuda: str | None, driver: str | None) -> str | None:
    """Why CUDA is unusable, in words that say what to fix; None where it is usable."""
    if available:
        return None
    if torch_cuda is None:
        return ("the installed torch is a CPU build: install the CUDA lock "
                "(make setup LOCK=requirements-cuda.lock)")
    if driver is None:
        return f"torch needs CUDA {torch_cuda}, and nvidia-smi reports no driver"
    needed = MIN_DRIVER.get(_version(torch_cuda)[0])
    if needed and _version(driver) < needed:
        return (f"the driver {driver} is older than CUDA {torch_cuda} (the lock's torch) needs: "
                f"{'.'.join(map(str, needed))} or newer")
    return f"torch (CUDA {torch_cuda}) finds no usable device with driver {driver}"


def untested(record: RunRecord) -> str | None:
    """Why a run tested nothing (every test skipped or errored before measuring), or None."""
    tests = record.tests
    if any(t.verdict.ran for t in tests):
        return None
    reasons = sorted({t.message for t in tests})[:3]
    return (f"no published test ran: {len(tests)} tests, none measured"
            + (f"; e.g. {' | '.join(reasons)}" if reasons else ""))


def incomplete(record: RunRecord) -> str | None:
    """Why a run that measured something is not a whole replication: the run was cut short, an
    anchor failed or crashed, or a finding was blocked, skipped or crashed; None where whole."""
    broken = [t for t in record.tests if t.kind == "anchor"
              and t.verdict in (Verdict.ANCHOR_FAILED, Verdict.ERROR)]
    unjudged = [t for t in record.tests if t.kind != "anchor"
                and t.verdict in (Verdict.BLOCKED, Verdict.SKIPPED, Verdict.ERROR)]
    parts = []
    if record.run.partial:
        parts.append(("the run was interrupted: " if record.run.interrupted else "")
                     + f"{len(record.run.not_run)} selected tests never ran")
    if broken:
        parts.append(f"{len(broken)} anchors failed or crashed: "
                     + "; ".join(f"{t.id} ({t.message})"[:200] for t in broken))
    if unjudged:
        parts.append(f"{len(unjudged)} findings not judged: "
                     + "; ".join(f"{t.id} {t.verdict.value} ({t.message})"[:200] for t in unjudged))
    return "incomplete: " + " | ".join(parts) if parts else None


def inconclusive(record: RunRecord) -> str | None:
    """The findings whose criterion accepted their null as well, by name; None where none did."""
    found = [t.id for t in record.tests if t.verdict is Verdict.INCONCLUSIVE]
    return (f"{len(found)} findings inconclusive (their criterion accepts no effect too): "
            + ", ".join(found)) if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The nightly's guards: CUDA usable before the "
                                     "run, the run complete after it.")
    sub = parser.add_subparsers(dest="guard", required=True)
    sub.add_parser("preflight", help="fail, saying why, where CUDA is unusable")
    done = sub.add_parser("complete", help="fail where the run is not a whole replication; "
                          "name the inconclusive findings")
    done.add_argument("record", type=Path, help="the run record (reports/results.json)")
    args = parser.parse_args(argv)
    if args.guard == "preflight":
        import torch

        problem = cuda_problem(torch.cuda.is_available(), torch.version.cuda, driver_version())
        print(f"CUDA unusable: {problem}" if problem else
              f"CUDA usable: {torch.cuda.get_device_name(0)} (torch CUDA {torch.version.cuda})")
        return 1 if problem else 0
    if not args.record.is_file():
        print(f"incomplete: no run record at {args.record} (the run wrote none: killed before "
              "its end, or its write failed)")
        return 1
    record = read_record(args.record)
    problem = untested(record) or incomplete(record)
    print(problem or "complete: every finding was judged and every anchor held")
    if inconclusive(record):
        print(inconclusive(record))
    return 1 if problem else 0


if __name__ == "__main__":
    raise SystemExit(main())
