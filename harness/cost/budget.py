"""`make test`'s time budget: each tier's wall time, recorded as it runs, and a check that fails
when a tier, or the whole, takes far longer than its budget on this kind of machine (2 cores).

    python -m harness.cost.budget time TIER -- COMMAND...   run COMMAND, add its wall time to the record
    python -m harness.cost.budget check                     print the table; exit 1 past the margin
"""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

RECORD = Path("reports/tiers.json")
# Seconds each tier may take on a 2-core machine with nothing else running (issues 27, 50): the
# whole under 4 minutes, each tier a little above what it took in a fresh clone on such a machine.
BUDGETS = {"tiny": 150, "hub": 20, "rehearsal": 90, "whole": 240}
# Timed and recorded beside them, outside make test and its budget: make test-meta, test-slow and
# mutate.
UNBUDGETED = ("meta", "slow", "mutate")
MARGIN = 2.0  # absolute times are noisy here: only a tier past twice its budget fails
BENCH = Path("reports/bench.json")  # `make bench`'s ratios, where it has run
BENCH_LIMIT = 1.1  # the suite's faithful run over straight-line nnsight, median over rounds


def bench_problem(path: Path = BENCH) -> tuple[str | None, str | None]:
    """`make bench`'s suite/straight line for the table, and why it fails (its median over
    BENCH_LIMIT); (None, None) where the benchmark has not run."""
    if not path.exists():
        return None, None
    found = json.loads(path.read_text()).get("suite_vs_straight", {})
    median, spread = found.get("median"), found.get("spread")
    if median is None:
        return "bench: a record without a median (an older make bench): run it again", None
    line = f"bench: suite/straight {median:.3f}x ± {spread:.1%} (limit {BENCH_LIMIT}x)"
    return line, (f"the suite runs {median:.3f}x straight-line nnsight, over {BENCH_LIMIT}x"
                  if median > BENCH_LIMIT else None)


def _load(path: Path) -> dict[str, float]:
    return json.loads(path.read_text())["seconds"] if path.exists() else {}


def lock_path(path: Path) -> Path:
    """The file whose lock one tier holds while it rewrites the record (make test times the hub
    tier beside the rehearsal)."""
    return path.with_name(path.name + ".lock")


def record(tier: str, seconds: float, path: Path = RECORD) -> dict[str, float]:
    """Add (or replace) one tier's wall time in the record, holding its lock, and return every
    tier's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path(path).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tiers = {**_load(path), tier: round(seconds, 1)}
        path.write_text(json.dumps({"seconds": tiers, "budgets": BUDGETS, "margin": MARGIN,
                                    "cpus": os.cpu_count()}, indent=2) + "\n")
    return tiers


def table(tiers: dict[str, float]) -> tuple[list[str], list[str]]:
    """The budget table's lines, and the tiers past MARGIN times their budget ('whole' is the
    sum of make test's tiers run, more than make test's wall time by the hub tier's, which runs
    beside the rehearsal; the others are shown without a budget)."""
    rows = {**tiers, "whole": round(sum(v for t, v in tiers.items() if t in BUDGETS), 1)}
    lines = [f"{'tier':<10} {'seconds':>8} {'budget':>7} {'ratio':>6}"]
    over = []
    for tier, budget in BUDGETS.items():
        if tier not in rows:
            lines.append(f"{tier:<10} {'not run':>8} {budget:>7}")
            continue
        ratio = rows[tier] / budget
        lines.append(f"{tier:<10} {rows[tier]:>8.1f} {budget:>7} {ratio:>5.2f}×"
                     + ("  OVER THE MARGIN" if ratio > MARGIN else "  over" if ratio > 1 else ""))
        if ratio > MARGIN:
            over.append(tier)
    lines += [f"{tier:<10} {rows[tier]:>8.1f} {'none':>7}" for tier in UNBUDGETED if tier in rows]
    return lines, over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time make test's tiers against their budgets (reports/tiers.json).")
    sub = parser.add_subparsers(dest="what", required=True)
    timed = sub.add_parser("time", help="run a command and record its wall time as a tier's")
    timed.add_argument("tier", choices=[*(t for t in BUDGETS if t != "whole"), *UNBUDGETED],
                       help="the tier the time counts for")
    timed.add_argument("command", nargs=argparse.REMAINDER,
                       help="the command to time, after --")
    sub.add_parser("check", help="print every tier against its budget and make bench's ratio; "
                   "fail past the margin or the ratio's limit")
    sub.add_parser("reset", help="forget the recorded times (make test starts with it)")
    args = parser.parse_args(argv)
    if args.what == "reset":
        RECORD.unlink(missing_ok=True)
        return 0
    if args.what == "time":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        start = time.perf_counter()
        status = subprocess.call(command)
        record(args.tier, time.perf_counter() - start)
        return status
    lines, over = table(_load(RECORD))
    bench, slow = bench_problem(BENCH)
    print("\n".join(["make test's time budget (reports/tiers.json):", *lines,
                     *([bench] if bench else [])]))
    if over:
        print(f"past {MARGIN:g}× the budget: {', '.join(over)}", file=sys.stderr)
    if slow:
        print(slow, file=sys.stderr)
    return 1 if over or slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
