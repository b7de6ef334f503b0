"""python -m harness.reporting.canary: compare a run on the newest releases with the locked run.

`make canary` runs the tiny profile twice, in the locked environment (reports/results.json) and in
`.canary/` with the newest releases (reports/canary/results.json), then calls this module, which
writes reports/canary.json: the package versions that differ, the claims whose measured values
moved outside their tolerance (snapshots.compare, with the locked entry's float tolerance) and the
claims whose verdict changed.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, Mapping

from harness.snapshots import EXACT, ORGANISM_FLOATS
from harness.reporting.record import RunRecord, read_record
from harness.reporting.run_diff import diff_runs, recorded_floats

SCHEMA_VERSION = 1
ENV_PACKAGES = ("python", "torch", "transformers", "nnsight")


def read_packages(path: Path | None) -> dict[str, str]:
    """A lock file's pins or `pip freeze --all` output as {normalised name: version}; hash,
    comment, editable and URL lines, and pip itself (never locked), are skipped."""
    if path is None or not path.exists():
        return {}
    packages = {}
    for line in path.read_text().splitlines():
        name, sep, version = line.strip().rstrip("\\").partition("==")
        name = re.sub(r"[-_.]+", "-", name.strip()).lower()
        if sep and not line.startswith(("#", "-", " ")) and name != "pip":
            packages[name] = version.split(";")[0].strip()
    return packages


def version_differences(locked: dict[str, Any], canary: dict[str, Any],
                        locked_packages: dict[str, str] | None = None,
                        canary_packages: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Versions that differ: those the environment blocks record, then every installed package
    when both package lists are given (None where a package is absent on that side)."""
    rows: dict[str, dict[str, Any]] = {}
    for name in ENV_PACKAGES:
        if locked.get(name) != canary.get(name):
            rows[name] = {"package": name, "locked": locked.get(name), "canary": canary.get(name)}
    lp, cp = locked_packages or {}, canary_packages or {}
    if lp and cp:
        for name in sorted(lp.keys() | cp.keys()):
            if name not in rows and name not in ENV_PACKAGES and lp.get(name) != cp.get(name):
                rows[name] = {"package": name, "locked": lp.get(name), "canary": cp.get(name)}
    return list(rows.values())


def compare_runs(locked: RunRecord, canary: RunRecord) -> dict[str, Any]:
    """Claims whose measured values drifted or whose verdict changed between two run records."""
    profile = locked.environment.get("profile")
    default = ORGANISM_FLOATS if profile == "tiny" else EXACT
    diff = diff_runs(locked, canary, floats=lambda e: recorded_floats(e, default),
                     names=("locked", "canary"))
    return {"drifted": [{"id": m.id, "differences": list(m.differences[:20]),
                         "tolerance": m.tolerance.as_record() if m.tolerance else None}
                        for m in diff.moved],
            "verdict_changed": [{"id": c.id, "locked": c.before, "canary": c.after,
                                 "message": c.message} for c in diff.verdicts],
            "only_locked": list(diff.only_before), "only_canary": list(diff.only_after)}


def canary_report(locked: RunRecord, canary: RunRecord, *,
                  locked_packages: dict[str, str] | None = None,
                  canary_packages: dict[str, str] | None = None,
                  notes: list[str] = (), wall_s: float | None = None) -> dict[str, Any]:
    """The document written to reports/canary.json."""
    lenv, cenv = locked.environment, canary.environment
    problems = []
    if lenv.get("profile") != cenv.get("profile"):
        problems.append(f"profiles differ: locked {lenv.get('profile')}, canary "
                        f"{cenv.get('profile')}; the comparison is not like for like")
    for name, record in (("locked", locked), ("canary", canary)):
        if record.run.partial:
            problems.append(f"the {name} run is partial")
    result = compare_runs(locked, canary)
    versions = version_differences(lenv, cenv, locked_packages, canary_packages)
    return {"schema": SCHEMA_VERSION,
            "written": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "wall_s": wall_s, "profile": cenv.get("profile"),
            "locked": _summary(lenv, locked), "canary": _summary(cenv, canary),
            "versions": versions, **result, "notes": list(notes), "problems": problems,
            "unchanged": not (versions or result["drifted"] or result["verdict_changed"]
                              or result["only_locked"] or result["only_canary"])}


def _summary(env: Mapping[str, Any], record: RunRecord) -> dict[str, Any]:
    return {"started": env.get("started"), "commit": env.get("commit"),
            "lock": env.get("lock"), "lock_sha256": env.get("lock_sha256"),
            "completed": record.run.completed, "exit_status": record.run.exit_status,
            "counts": record.counts.get("all", {})}


def summary_lines(report: dict[str, Any]) -> list[str]:
    """What the canary found, for the terminal."""
    lines = [f"canary: {len(report['versions'])} versions differ, {len(report['drifted'])} "
             f"claims drifted, {len(report['verdict_changed'])} verdicts changed"]
    lines += [f"  {v['package']}: {v['locked']} -> {v['canary']}" for v in report["versions"]]
    lines += [f"  drifted {d['id']}: {'; '.join(d['differences'][:3])}"[:300]
              for d in report["drifted"]]
    lines += [f"  verdict {c['id']}: {c['locked']} -> {c['canary']}"
              for c in report["verdict_changed"]]
    lines += [f"  note: {n}" for n in report["notes"] + report["problems"]]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--locked", type=Path, default=Path("reports/results.json"),
                        help="the locked run's record")
    parser.add_argument("--canary", type=Path, default=Path("reports/canary/results.json"),
                        help="the canary run's record (newest releases)")
    parser.add_argument("--locked-packages", type=Path, default=None, help="the lock file")
    parser.add_argument("--canary-packages", type=Path, default=None, help="pip freeze --all")
    parser.add_argument("--note", action="append", default=[],
                        help="a line to show with the comparison (repeatable)")
    parser.add_argument("--wall-s", type=float, default=None,
                        help="the canary run's wall time in seconds, to show")
    parser.add_argument("--out", type=Path, default=Path("reports/canary.json"),
                        help="where to write the comparison")
    args = parser.parse_args()
    report = canary_report(read_record(args.locked), read_record(args.canary),
                           locked_packages=read_packages(args.locked_packages),
                           canary_packages=read_packages(args.canary_packages),
                           notes=args.note, wall_s=args.wall_s)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print("\n".join(summary_lines(report)))
    print(f"canary: {args.out}")


if __name__ == "__main__":
    main()
