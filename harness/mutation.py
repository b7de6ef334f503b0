"""`make mutate` (issue 45): mutation testing of the judging core with mutmut, scored per module.

mutmut (not cosmic-ray): mutmut 3 forks each mutant from one warm pytest process and runs only the
tests that reach the mutated function, so the ~2,400 mutants of the core take minutes on 2 cores;
cosmic-ray starts a process per mutant, and each would import torch again. pyproject.toml's
[tool.mutmut] names the modules (only_mutate) and the tests (pytest_add_cli_args_test_selection).

A mutant is killed when a test fails on it, or when it hangs past mutmut's time limit (a loop that
never ends is caught too). Every other mutant (survived, reached by no test) must be listed in
tests/mutation/equivalent.toml with the reason it cannot change a verdict; an unlisted one, a
module under GOAL, or a listed name that is now killed or gone fails the run (a listed one that timed
out does not: a slow equivalent mutant may pass the time limit on a loaded machine).

    interp-claims mutate [--max-children N] [--no-run] [--out reports/mutation.json]
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

GOAL = 0.95
SHOWN = 40  # survivors printed per kind; the json lists all
MUTANTS = Path("mutants")
EQUIVALENT = Path("tests/mutation/equivalent.toml")
# mutmut's exit codes per mutant (mutmut.stats.status_by_exit_code), folded into what we count.
KILLED, TIMED_OUT = "killed", "timed out"
STATUS = {1: KILLED, 3: KILLED, 37: KILLED, 36: TIMED_OUT, 24: TIMED_OUT, -24: TIMED_OUT,
          152: TIMED_OUT, 255: TIMED_OUT, 0: "survived", 5: "no tests", 33: "no tests",
          None: "not checked"}
DETECTED = (KILLED, TIMED_OUT)
# mutmut forks each mutant from a pytest process that has run the model tests: a child forked
# after torch's OpenMP pool started waits forever on the pool's threads, which the fork did not
# copy, so every mutant reaching a model forward "timed out", and counted as detected. With one
# thread there is no pool to wait on.
FORK_SAFE = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def configured(pyproject: Path = Path("pyproject.toml")) -> dict[str, Any]:
    """pyproject.toml's [tool.mutmut]: the modules mutated and the tests that judge them."""
    return tomllib.loads(pyproject.read_text())["tool"]["mutmut"]


def statuses(mutants: Path = MUTANTS) -> dict[str, dict[str, str]]:
    """Each mutated module's mutants and how each came out, from mutmut's .meta files."""
    found: dict[str, dict[str, str]] = {}
    for meta in sorted(mutants.rglob("*.py.meta")):
        module = meta.relative_to(mutants).as_posix().removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        found[module] = {name: STATUS.get(code, f"exit {code}") for name, code in codes.items()}
    return found


def score(outcomes: dict[str, str]) -> dict[str, Any]:
    """One module's counts: mutants, killed, survived, no tests, timed out, other, and the share
    detected (killed or timed out)."""
    counts = Counter(outcomes.values())
    known = {KILLED, TIMED_OUT, "survived", "no tests"}
    total = len(outcomes)
    return {"mutants": total, "killed": counts[KILLED], "survived": counts["survived"],
            "no_tests": counts["no tests"], "timed_out": counts[TIMED_OUT],
            "other": sum(n for status, n in counts.items() if status not in known),
            "score": round(sum(counts[s] for s in DETECTED) / total, 4) if total else 1.0}


def equivalents(path: Path = EQUIVALENT) -> dict[str, str]:
    """The listed survivors: mutant name -> why it cannot change a verdict."""
    return dict(tomllib.loads(path.read_text()).get("mutants", {})) if path.exists() else {}


def judge(found: dict[str, dict[str, str]], listed: dict[str, str],
          modules: list[str]) -> dict[str, Any]:
    """The run's verdict: each module's score, the survivors not listed, the listed names that are
    no longer survivors, the configured modules that produced no mutants, and whether it passed."""
    scores = {module: score(outcomes) for module, outcomes in sorted(found.items())}
    survivors = {name: status for outcomes in found.values()
                 for name, status in outcomes.items() if status not in DETECTED}
    missing = [pattern for pattern in modules
               if not any(fnmatch.fnmatch(module, pattern) for module in found)]
    every = {name: status for outcomes in found.values() for name, status in outcomes.items()}
    unlisted = sorted(set(survivors) - set(listed))
    # A listed survivor that timed out stays listed: a slow equivalent mutant can pass mutmut's
    # time limit on a loaded machine, and then it is neither killed nor a survivor.
    stale = sorted(name for name in listed if every.get(name, KILLED) == KILLED)
    under = sorted(m for m, s in scores.items() if s["score"] < GOAL)
    return {"goal": GOAL, "modules": scores, "survivors": dict(sorted(survivors.items())),
            "unlisted": unlisted, "stale": stale, "missing": missing, "under_goal": under,
            "ok": not (unlisted or stale or missing or under)}


def table(verdict: dict[str, Any]) -> list[str]:
    """The printed table: one line per module, then what fails the run."""
    lines = [f"{'module':<36} {'mutants':>7} {'killed':>6} {'surv':>5} {'none':>5} "
             f"{'t/o':>4} {'score':>6}"]
    for module, s in verdict["modules"].items():
        if not s["mutants"]:
            continue
        flag = "  UNDER THE GOAL" if module in verdict["under_goal"] else ""
        lines.append(f"{module:<36} {s['mutants']:>7} {s['killed']:>6} {s['survived']:>5} "
                     f"{s['no_tests']:>5} {s['timed_out']:>4} {s['score']:>6.1%}{flag}")
    for key, what in (("unlisted", f"survivors not in {EQUIVALENT}"),
                      ("stale", f"listed in {EQUIVALENT} but killed or gone: remove them"),
                      ("missing", "configured modules with no mutants")):
        names = verdict[key]
        if names:
            lines.append(f"{len(names)} {what}:")
            lines += [f"  {name}" + (f": {verdict['survivors'][name]}"
                                     if name in verdict["survivors"] else "")
                      for name in names[:SHOWN]]
            if len(names) > SHOWN:
                lines.append(f"  ... and {len(names) - SHOWN} more (the json lists all)")
    lines.append(f"goal: {GOAL:.0%} detected in every module, every survivor listed -> "
                 + ("passed" if verdict["ok"] else "FAILED"))
    return lines


def run_mutmut(max_children: int, log: Path) -> int:
    """A fresh mutmut run (its cache removed first: every mutant is tested again), output to
    `log`, with one OpenMP thread (FORK_SAFE); mutmut's own exit status."""
    shutil.rmtree(MUTANTS, ignore_errors=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        return subprocess.call([sys.executable, "-m", "mutmut", "run", "--max-children",
                                str(max_children)], stdout=out, stderr=subprocess.STDOUT,
                               env={**os.environ, **FORK_SAFE})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="interp-claims mutate",
        description="Mutation-test the judging core (pyproject.toml's [tool.mutmut]) and score "
                    "each module against the 95%% goal and tests/mutation/equivalent.toml.")
    parser.add_argument("--max-children", type=int, default=2,
                        help="mutants tested at once (default 2: one per core here)")
    parser.add_argument("--no-run", action="store_true",
                        help="score the mutants/ folder an earlier run left, without running")
    parser.add_argument("--out", type=Path, default=Path("reports/mutation.json"),
                        help="where the scores go (default reports/mutation.json)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if not args.no_run:
        log = args.out.with_suffix(".log")
        status = run_mutmut(args.max_children, log)
        if status != 0:
            print(f"mutmut failed (exit {status}); its output: {log}", file=sys.stderr)
            return 2
    config = configured()
    verdict = judge(statuses(), equivalents(), config["only_mutate"])
    verdict.update(tool="mutmut", tests=config["pytest_add_cli_args_test_selection"],
                   wall_s=round(time.perf_counter() - start, 1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(verdict, indent=2) + "\n")
    print("\n".join(table(verdict)))
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
