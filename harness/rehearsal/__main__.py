"""python -m harness.rehearsal: the published code path on seeded random weights of the published
architectures, one source at a time, with time and peak memory per source and per test.

--device cpu (the default; `make test`): narrowed widths, the rehearsal profile and its declared
sizes (float32 where the CPU has no native bf16), under the device audit. --device cuda (`make
gpu-rehearsal`): full-size models drawn on the GPU, the rehearsal profile with the published sizes
and layer indices (no published value judges random weights) in bf16, fast then faithful, each
decode step capped (cot's chosen from the plan to fit each mode's budget) and the full-size decode
time extrapolated; the device audit runs after as a pass of its own. --dry-run-of cuda runs that
path here on the CPU, narrowed. Each source is built, run and deleted in turn, each mode within a
budget of its own, and the summary is rewritten after each step. Where a behavioural filter keeps
nothing on random weights, the rehearsal profile forces its declared rows past it, so every test
reaches a verdict. Either fails on any test that errors or fails, on a test skipped or blocked
for a reason it does not expect, and on a source or mode left unrun."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from harness.models.resources import published_cache_default
from harness.rehearsal.run import rehearse
from harness.rehearsal.setting import FULL_SIZE_DECODE_CAP, Setting


def main() -> None:
    from harness.registry import registered

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", nargs="+", default=sorted(registered()),
                        choices=sorted(registered()), help="run just these (default: all)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="where the random-weight models run")
    parser.add_argument("--dry-run-of", choices=("cuda",), default=None,
                        help="run that device's setting (published sizes, modes, capped decoding, "
                             "separate audit, a budget per source and mode) here on the CPU, "
                             "narrowed")
    parser.add_argument("--decode-cap", type=int, default=None,
                        help="tokens each decode step stops at (default at full size: cot's "
                             "chosen from the plan to fit each mode's budget, at most "
                             f"{FULL_SIZE_DECODE_CAP}; the CPU rehearsal's sizes are already "
                             "short)")
    parser.add_argument("--audit", choices=("inline", "separate", "none"), default=None,
                        help="the device audit: over the timed runs (the CPU default), as a pass "
                             "of its own after them (the CUDA default), or not at all (make test, "
                             "whose audit make test-meta runs)")
    parser.add_argument("--published-cache", type=Path, default=published_cache_default(),
                        help="an HF_HOME-layout cache with the published configs and tokenizers")
    parser.add_argument("--out", type=Path, default=Path("reports/rehearsal.json"),
                        help="where to write the rehearsal's record")
    parser.add_argument("--modes", nargs="+", choices=("faithful", "fast"), default=None,
                        help="the modes to run each source in, in order (default: faithful on "
                             "the CPU; fast, then faithful, on CUDA)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="sources run at once (default: the CPU count on the CPU, where "
                             "each runs on one thread; 1 on CUDA, one GPU)")
    parser.add_argument("--budget", type=int, default=None,
                        help="seconds for each source in each mode, the build not counted "
                             f"(default: {Setting.for_device('cpu').budget_s} on the CPU, "
                             f"{Setting.for_device('cuda').budget_s} on CUDA)")
    parser.add_argument("--build-budget", type=int, default=None,
                        help="seconds for each source's build (default: "
                             f"{Setting.for_device('cpu').build_budget_s} on the CPU, "
                             f"{Setting.for_device('cuda').build_budget_s} on CUDA)")
    parser.add_argument("--deadline", type=float, default=None,
                        help="seconds for the whole rehearsal: nothing starts past it (a short "
                             "GPU lease; default: none)")
    parser.add_argument("--runs", type=Path, default=None,
                        help="keep each run's log, results and streamed tests here (default: a "
                             "temporary folder); `interp-claims report <its results.json>` "
                             "renders a run's page")
    args = parser.parse_args()
    if args.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            sys.exit("--device cuda: no CUDA device here (use --dry-run-of cuda for its dry run)")
    setting = Setting.for_device(args.dry_run_of or args.device)
    if args.dry_run_of:
        setting = setting.dry_run(args.decode_cap or FULL_SIZE_DECODE_CAP)
    elif args.decode_cap:
        setting = replace(setting, decode_cap=args.decode_cap, cap_from_plan=False)
    if args.modes:
        setting = replace(setting, modes=tuple(args.modes))
    if args.audit:
        setting = replace(setting, audit=args.audit)
    if args.build_budget:
        setting = replace(setting, build_budget_s=args.build_budget)
    summary = rehearse(args.sources, setting, args.published_cache, args.out,
                       args.budget or setting.budget_s, args.jobs or setting.jobs, args.deadline,
                       args.runs)
    if summary["ok"] is None:
        print(f"rehearsal skipped: {summary['skipped']}")
        return
    runs = [(f"{name} ({mode})", s) for name, by_mode in summary["sources"].items()
            for mode, s in by_mode.items()]
    runs += [(f"{name} (device audit)", s) for name, s in summary["audit"].items()]
    for label, s in runs:
        verdicts: dict[str, int] = {}
        for t in s["tests"]:
            verdicts[str(t["verdict"])] = verdicts.get(str(t["verdict"]), 0) + 1
        extra = f", {s['extrapolated']}" if s.get("extrapolated") else ""
        cut = ", CUT OFF (its streamed tests kept)" if s["timed_out"] else ""
        print(f"{label}: {s['seconds']} s{cut}, max RSS {s['max_rss_bytes']}, peak GPU "
              f"{s['peak_gpu_bytes']}, {s['throughput']['positions_per_s']} positions/s, "
              f"{verdicts}, {s['forced']} on forced rows{extra}"
              + "".join(f"\n  {e}" for e in s["errors"])
              + "".join(f"\n  hole: {h}" for h in s["holes"]))
    for name, built in summary["build"].items():
        if "error" in built:
            print(f"{name}: not built: {built['error'][-500:]}")
    for name, caps in summary["decode_caps"].items():
        for mode, chosen in caps.items():
            print(f"{name} ({mode}) decode cap {chosen['why']}")
    for line in summary["not_run"]:
        print(f"not run, out of time: {line}")
    print(f"rehearsal {'passed' if summary['ok'] else 'FAILED'} (builds {summary['build_seconds']} "
          f"s, not counted in the budgets, in {summary['scratch']['path']}); summary: {args.out}")
    sys.exit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
