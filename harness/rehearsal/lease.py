"""python -m harness.rehearsal.lease (or scripts/gpu-lease): one command for a short lease of one
GPU. It checks the environment (on an offline machine, OFFLINE=1: installs what it lacks from
wheelhouse/ first), records it, then rehearses on CUDA as many sources as fit in the deadline, the
most informative first, and leaves every result and log in one folder, reports/lease-<stamp>/:
lease.json (each step, its time and exit status), environment.json, nvidia-smi.txt, torch.txt,
gpu-rehearsal.json (rewritten after each source and mode) and runs/<source>/<mode>/ (each run's
log, results and tests streamed as they finished). Standard library only at import: it runs on
the machine's own Python before anything is installed."""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 540  # ten minutes of lease, less a minute to start and to copy the folder back
RESERVE_S = 25  # kept after the rehearsal's deadline: its last run's grace and the summary
ORDER = ("patching", "cot", "heads", "lookback")  # the most informative per second first
TORCH_PROBE = ("import json, torch; ok = torch.cuda.is_available(); print(json.dumps({"
               "'torch': torch.__version__, 'cuda': torch.version.cuda, 'available': ok, "
               "'device': torch.cuda.get_device_name(0) if ok else None}))")


class Lease:
    """The lease's folder, its clock and its record of steps (lease.json, rewritten after each)."""

    def __init__(self, folder: Path, deadline_s: float) -> None:
        self.folder, self.deadline_s, self.start = folder, deadline_s, time.monotonic()
        self.record: dict = {"started": dt.datetime.now(dt.timezone.utc).isoformat(),
                             "deadline_s": deadline_s, "folder": str(folder), "steps": []}
        folder.mkdir(parents=True, exist_ok=True)

    def left(self) -> float:
        """Seconds left of the deadline."""
        return self.deadline_s - (time.monotonic() - self.start)

    def step(self, name: str, args: list[str], env: dict[str, str], timeout: float,
             log: str) -> int | None:
        """Run `args`, its output to folder/`log`, killed past `timeout`; its exit status (None
        when killed), recorded in lease.json and printed."""
        start = time.monotonic()
        with (self.folder / log).open("w") as output:
            try:
                status = subprocess.run(args, env=env, cwd=ROOT, stdout=output,
                                        stderr=subprocess.STDOUT,
                                        timeout=max(1, timeout)).returncode
            except (subprocess.TimeoutExpired, FileNotFoundError) as error:
                output.write(f"\nlease: {error}\n")
                status = None
        seconds = round(time.monotonic() - start, 1)
        self.record["steps"].append({"step": name, "command": args, "exit_status": status,
                                     "seconds": seconds, "log": log})
        self.save()
        print(f"lease: {name}: exit {status} in {seconds} s ({self.folder / log})", flush=True)
        return status

    def save(self) -> None:
        """Rewrite lease.json atomically."""
        path = self.folder / "lease.json"
        partial = path.with_suffix(".json.partial")
        partial.write_text(json.dumps(self.record, indent=2) + "\n")
        os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deadline", type=float, default=DEADLINE_S,
                        help=f"seconds for everything (default {DEADLINE_S})")
    parser.add_argument("--sources", nargs="+", default=list(ORDER),
                        help="the sources to rehearse, the most informative first (default: "
                             "%(default)s)")
    parser.add_argument("--offline", action="store_true", default=os.environ.get("OFFLINE") == "1",
                        help="a machine with its own torch and no index: install what it lacks "
                             "from --wheelhouse first (default: OFFLINE=1 in the environment)")
    parser.add_argument("--wheelhouse", type=Path, default=ROOT / "wheelhouse",
                        help="the wheels an offline machine installs from (make wheelhouse)")
    parser.add_argument("--folder", type=Path, default=None,
                        help="where everything goes (default: reports/lease-<UTC stamp>)")
    parser.add_argument("--rehearsal-args", default="",
                        help="more arguments for python -m harness.rehearsal (e.g. '--budget 90')")
    args = parser.parse_args(argv)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    lease = Lease(args.folder or ROOT / "reports" / f"lease-{stamp}", args.deadline)
    py, env = sys.executable, dict(os.environ)
    if args.offline:
        site = ROOT / ".offline" / "site"
        env |= {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(site),
                                                             env.get("PYTHONPATH")])),
                "PYTEST_PLUGINS": "harness.plugin"}
        if lease.step("offline install", [py, "-m", "harness.offline", "install", "--wheelhouse",
                                          str(args.wheelhouse), "--target", str(site)],
                      env, lease.left(), "offline-install.log") != 0:
            return finish(lease, "the offline install failed")
    if lease.step("check", [py, "-m", "harness.offline", "check"], env, lease.left(),
                  "check.log") != 0:
        return finish(lease, "the environment lacks what the suite needs (check.log)")
    lease.step("versions", [py, "-m", "harness.offline", "versions", "--out",
                            str(lease.folder / "environment.json")], env, lease.left(),
               "versions.log")
    lease.step("nvidia-smi", ["nvidia-smi"], env, 30, "nvidia-smi.txt")
    lease.step("torch.cuda", [py, "-c", TORCH_PROBE], env, lease.left(), "torch.txt")
    probe = (lease.folder / "torch.txt").read_text().strip().splitlines()
    cuda = json.loads(probe[-1]) if probe and probe[-1].startswith("{") else {}
    if not cuda.get("available"):
        return finish(lease, f"torch sees no CUDA device (torch.txt: {probe[-1:] or 'no output'})")
    out = lease.folder / "gpu-rehearsal.json"
    rehearsal = [py, "-m", "harness.rehearsal", "--device", "cuda", "--sources", *args.sources,
                 "--deadline", str(int(lease.left() - RESERVE_S)), "--out", str(out),
                 "--runs", str(lease.folder / "runs"), *args.rehearsal_args.split()]
    status = lease.step("rehearsal", rehearsal, env, lease.left() - 5, "rehearsal.log")
    return finish(lease, None if status == 0 else f"the rehearsal exited {status} "
                  f"(rehearsal.log; what it ran: {out.name})", out)


def finish(lease: Lease, failure: str | None, summary: Path | None = None) -> int:
    """Record how the lease ended and print where everything is; 0 only when the rehearsal
    passed."""
    lease.record |= {"ok": failure is None, "failure": failure,
                     "seconds": round(time.monotonic() - lease.start, 1)}
    if summary is not None and summary.is_file():
        ran = json.loads(summary.read_text())
        lease.record["rehearsed"] = {name: sorted(modes) for name, modes in
                                     ran.get("sources", {}).items()}
        lease.record["not_run"] = ran.get("not_run", [])
    lease.save()
    print(f"lease: {'passed' if failure is None else 'FAILED: ' + failure}; everything is in "
          f"{lease.folder} (copy it back; its gpu-rehearsal.json goes to reports/)")
    return 0 if failure is None else 1


if __name__ == "__main__":
    sys.exit(main())
