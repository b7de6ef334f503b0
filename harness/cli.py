"""interp-claims: the suite's one command. Each subcommand runs one of the suite's tools, with that
tool's own flags (`interp-claims <command> --help`); `status` reads one claim from a run record,
and `plan` prices the collected claims without loading a model. Standard library only at import:
`make` runs it as `python -m harness.cli` where nothing is installed (a borrowed offline GPU)."""
from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

# command -> (the module it runs as `python -m`, what it does)
TOOLS: dict[str, tuple[str, str]] = {
    "replicate": ("harness.replicating",
                  "every source on the best model this machine runs; one record, one page"),
    "rehearse": ("harness.rehearsal", "the published code path on random weights, per source"),
    "lease": ("harness.rehearsal.lease", "a short GPU lease: check, rehearse what fits, one folder"),
    "report": ("harness.reporting.report", "render a run record (results.json) as claims.html"),
    "organisms": ("harness.organisms", "re-train or re-compile a source's organism"),
    "diff": ("harness.reporting.run_diff", "every difference between two run records but timing"),
    "canary": ("harness.reporting.canary", "compare the locked run with the newest releases'"),
    "nightly": ("harness.reporting.nightly", "the nightly's guards: preflight, complete"),
    "budget": ("harness.cost.budget", "time make test's tiers against their budgets"),
    "sources": ("harness.sources", "list the registered sources"),
    "offline": ("harness.offline", "a borrowed offline GPU: wheelhouse, install, check, versions"),
    "lock": ("harness.lock", "the lock this machine installs"),
    "install": ("harness.install", "install a hashed lock into a venv: with uv, else with pip"),
    "bench": ("harness.sources.cot.bench", "speed ratios on the cot organism"),
    "mutate": ("harness.mutation", "mutation-test the judging core, scored per module"),
    "sensitivity": ("harness.reporting.sensitivity_table",
                    "what each finding's criterion can detect at the published n, no model"),
    "new": ("harness.drafting", "draft a source from a notebook (--share: measure on the seeds)"),
}
USAGE = "\n".join(
    ["usage: interp-claims <command> [its flags]", "", "commands:",
     "  status CLAIM_ID [--results PATH]   one claim's verdict, drift, known answer and message",
     "  plan [--claims-profile P] [...]    each claim's model work and GPU time, no model loaded",
     *(f"  {name:<33}  {what}" for name, (_, what) in TOOLS.items())])


def status(claim_id: str, results: Path) -> int:
    """Print one claim's verdict, drift, known answer and message from a run record."""
    try:
        record = json.loads(results.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read {results}: {exc}", file=sys.stderr)
        return 2
    entry = next((t for t in record.get("tests", []) if t.get("id") == claim_id), None)
    if entry is None:
        print(f"{claim_id}: not in {results} (run `pytest -k {claim_id}` to run it alone)",
              file=sys.stderr)
        return 2
    known = entry.get("known_answer") or {}
    headline = entry.get("headline") or {}
    lines = [f"{claim_id} ({entry.get('kind')}, {entry.get('source')}, profile "
             f"{record.get('environment', {}).get('profile')})",
             f"  verdict: {entry.get('verdict')}",
             f"  drift: {entry.get('drift') or 'not compared'}",
             f"  known answer: {known.get('outcome', 'none planted')}"
             + (f" ({known['detail']})" if known.get("detail") else "")]
    if headline.get("measured"):
        lines.append(f"  measured: {headline['measured']}")
    if headline.get("published"):
        lines.append(f"  published: {headline['published']}")
    if entry.get("message"):
        lines.append(f"  message: {entry['message']}")
    lines += [f"  detects: {s['words']}" for s in entry.get("sensitivity") or []]
    if entry.get("null_check"):
        lines.append(f"  null: {entry['null_check']['detail']}")
    print("\n".join(lines))
    return 0


STATUS_HELP = """usage: interp-claims status CLAIM_ID [--results PATH]

One claim's verdict, drift, known answer, message, what its criterion detects and its null, read
from a run record.

positional arguments:
  CLAIM_ID        the claim's id (e.g. cot.baseline-accuracy)

options:
  -h, --help      show this help message and exit
  --results PATH  the run record to read (default: reports/results.json)"""

PLAN_HELP = """usage: interp-claims plan [--claims-profile P] [--plan-gpu GPU] [--plan-gpus N]
                          [--plan-utilisation F] [--plan-overhead-ms MS]
                          [--plan-calibration PATH] [pytest arguments ...]

Each source's and claim's model work and estimated GPU time in both modes, priced from the
organisms' work ledgers, with no model loaded and no test run; writes reports/plan-<profile>.json.

options:
  -h, --help              show this help message and exit
  --claims-profile P      the profile to price (default: published)
  --plan-gpu GPU          the GPU the plan prices the work on (default: H200)
  --plan-gpus N           the GPUs the several-GPU figures assume (default: 8)
  --plan-utilisation F    the fraction of the GPU's dense bf16 throughput reached
  --plan-overhead-ms MS   the fixed cost of one forward outside the arithmetic
  --plan-calibration PATH
                          a GPU rehearsal's summary (reports/gpu-rehearsal.json) to fit both to
  pytest arguments        any other argument goes to pytest (e.g. -k to price a selection)"""


def plan(args: list[str]) -> int:
    """`pytest --plan` over claims/, on the published profile unless --claims-profile says
    otherwise."""
    if "-h" in args or "--help" in args:
        print(PLAN_HELP)
        return 0
    chosen = any(a.startswith("--claims-profile") for a in args)
    profile = [] if chosen else ["--claims-profile=published"]
    return subprocess.call([sys.executable, "-m", "pytest", "claims", "--plan", "-q",
                            "-p", "no:cacheprovider", *profile, *args])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "status":
        if "-h" in rest or "--help" in rest:
            print(STATUS_HELP)
            return 0
        if not rest or rest[0].startswith("-"):
            print("usage: interp-claims status CLAIM_ID [--results PATH]", file=sys.stderr)
            return 2
        results = Path(rest[rest.index("--results") + 1]) if "--results" in rest else \
            Path("reports/results.json")
        return status(rest[0], results)
    if command == "plan":
        return plan(rest)
    if command not in TOOLS:
        print(f"interp-claims: no command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    sys.argv = [f"interp-claims {command}", *rest]
    try:
        return run(TOOLS[command][0])
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 1)


def run(module: str) -> int:
    """The tool's main() (its package's __main__'s for a package), with sys.argv already the
    tool's."""
    if importlib.util.find_spec(module).submodule_search_locations is not None:
        module = f"{module}.__main__"
    return importlib.import_module(module).main() or 0


if __name__ == "__main__":
    raise SystemExit(main())
