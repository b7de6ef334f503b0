"""interp-claims replicate (`make replicate`): every source's claims on the best model this machine
runs (harness.best_models: its published model where it can, else its organism), one pytest run
per profile, merged into one run record (reports/results.json) and one page that says, per
source, which model ran and why (issue 48)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from harness.best_models import Choice, choose, groups
from harness.reporting.record import RunRecord, RunStatus, read_record

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"
NO_TESTS = 5  # pytest's exit status when it collected nothing


def merged(records: dict[str, RunRecord], chosen: dict[str, Choice]) -> RunRecord:
    """One record of the profiles' runs: every entry and counted work, each source's choice in
    the environment, complete where each run was; the profile named by the ones that ran."""
    first = next(iter(records.values()))
    models = {k: v for r in records.values() for k, v in r.environment.get("models", {}).items()}
    env = {**first.environment, "profile": "+".join(records), "models": models,
           "sources": {name: c.as_record() for name, c in chosen.items()},
           "selection": {"markers": "", "keywords": "", "paths": ["claims"],
                         "sources": {name: c.profile.value for name, c in chosen.items()}},
           "started": min(r.started or "" for r in records.values()) or first.started}
    runs = [r.run for r in records.values()]
    statuses = [s.exit_status for s in runs if s.exit_status is not None]
    run = RunStatus(all(s.completed for s in runs), max(statuses, default=None),
                    any(s.interrupted for s in runs), tuple(n for s in runs for n in s.not_run))
    return RunRecord(env, run, tuple(e for r in records.values() for e in r.tests),
                     {k: v for r in records.values() for k, v in r.work.items()},
                     {k: v for r in records.values() for k, v in r.work_check.items()})


def run_profile(profile: str, sources: list[str], root: Path, reports: Path,
                extra: list[str]) -> Path:
    """Run `sources`' claims folders on `profile`; the path of the record it wrote (with its
    history) under `reports`/replicate/<profile>/."""
    results = reports / "replicate" / profile / "results.json"
    results.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest", *(f"claims/{s}" for s in sources),
               f"--claims-profile={profile}", f"--results={results}", "-p", "no:cacheprovider",
               *extra]
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, cwd=root)
    return results


def describe(chosen: dict[str, Choice]) -> list[str]:
    """One line per source: the model it runs on and why."""
    return [f"{c.source:<13} {c.profile.value:<10} {c.model}: {c.why}" for c in chosen.values()]


def replicate(root: Path, reports: Path, sources: list[str] | None, extra: list[str]) -> int:
    """Choose, run each profile's sources, merge into `reports`/results.json and render; pytest's
    worst exit status (or 2 where a run wrote no record)."""
    from harness.reporting.history import archive
    from harness.reporting.report import write_report
    from harness.reporting.terminal import status_table

    chosen = choose(sources)
    print("\n".join(["each source's model on this machine:", *describe(chosen)]), flush=True)
    records: dict[str, RunRecord] = {}
    for profile, names in groups(chosen).items():
        path = run_profile(profile.value, names, root, reports, extra)
        if not path.exists():
            print(f"the {profile.value} run of {', '.join(names)} wrote no record", file=sys.stderr)
            return 2
        records[profile.value] = read_record(path)
    record = merged(records, chosen)
    results = reports / "results.json"
    results.write_text(json.dumps(record.to_json(), indent=2) + "\n")
    archive(record, results.parent / "history")
    print("\n".join(status_table(record)))
    print(f"report: {write_report(results)}")
    # a run that collected nothing does not hide another run's failure
    return max((r.run.exit_status or 0 for r in records.values()
                if r.run.exit_status != NO_TESTS), default=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="interp-claims replicate",
        description="Run every source's claims on the best model this machine runs: its "
                    "published model where the device and the weights allow, else its organism; "
                    "write one run record (reports/results.json) and one page that says which "
                    "model each source ran on and why.")
    parser.add_argument("--sources", nargs="+", default=None, metavar="SOURCE",
                        help="run just these sources (default: every registered source)")
    parser.add_argument("--reports", type=Path, default=REPORTS,
                        help="where the merged record, its history and page go (default: "
                             "reports/); each profile's own run goes under its replicate/")
    parser.add_argument("pytest_args", nargs="*", metavar="-- PYTEST_ARGS",
                        help="more arguments for each pytest run, after --")
    args = parser.parse_args(argv)
    return replicate(ROOT, args.reports.resolve(), args.sources, args.pytest_args)


if __name__ == "__main__":
    sys.exit(main())
