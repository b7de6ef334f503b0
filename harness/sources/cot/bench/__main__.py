"""`make bench`: three ratios measured side by side in one process on the CPU organisms, over
interleaved rounds after a warm-up, their medians and spreads written to reports/bench.json
(`interp-claims budget check` fails on a suite/straight median over its limit).

1. the suite's faithful seed 000 §1–§4 against the same work written straight through (bench/straight.py);
2. fast mode against faithful mode on the same functions;
3. an nnsight traced forward against a plain transformers forward on the same batch."""
from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import torch

from harness.sources.cot.bench.rounds import ratio, run_rounds
from harness.sources.cot.bench.straight import cot_sections_1_to_4
from harness.models.loaded import load
from harness.registry import get_profile
from harness.sources.cot.forcing import full_corruption
from harness.sources.cot.mistakes import single_mistake, splice_control
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS
from harness.sources.cot.traces import baseline, early_answering


def suite_sections_1_to_4(runner: CotRunner, problems) -> dict[str, list]:
    """The suite's functions for the work straight.py does, their answers in its order."""
    usable = baseline(runner, problems).usable
    full = full_corruption(runner, usable)
    return {"usable": [t.idx for t in usable],
            "early": [a for row in early_answering(runner, usable).answers for a in row],
            "splice": splice_control(runner, usable).identical,
            "mistake": single_mistake(runner, usable).answers,
            "full_control": full.control, "full_corrupted": full.corrupted}


def forward_ratio(model, ids: torch.Tensor, repeats: int) -> dict[str, float]:
    """Seconds per forward, traced through nnsight and plain, interleaved."""
    traced = plain = 0.0
    for _ in range(repeats):
        with torch.no_grad():
            start = time.perf_counter()
            with model.nn.trace(ids):
                model.nn.output.logits.save()
            traced += time.perf_counter() - start
            start = time.perf_counter()
            model.hf(ids)
            plain += time.perf_counter() - start
    return {"traced_s": traced / repeats, "plain_s": plain / repeats,
            "ratio": traced / plain}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--out", type=Path, default=Path("reports/bench.json"),
                        help="where to write the ratios")
    parser.add_argument("--problems", type=int, default=len(PROBLEMS),
                        help="how many of the organism's problems each side runs")
    parser.add_argument("--rounds", type=int, default=5,
                        help="timed rounds, each running every side once, after a warm-up")
    parser.add_argument("--repeats", type=int, default=20,
                        help="timed repeats of the traced and plain forward")
    args = parser.parse_args(argv)
    profile = get_profile("tiny")
    sizes, problems = profile.sizes["cot"], PROBLEMS[:args.problems]
    model = load(profile.models["cot"])  # one thread on the CPU (see harness.models.loaded.load)
    faithful, fast = CotRunner(model, sizes), CotRunner(model, sizes, sizes.fast_batch)
    straight = lambda: cot_sections_1_to_4(model.nn, model.tok, problems, sizes)  # noqa: E731
    found = run_rounds({"straight": straight, "straight again": straight,
                        "suite": lambda: suite_sections_1_to_4(faithful, problems),
                        "fast": lambda: suite_sections_1_to_4(fast, problems)}, args.rounds)
    prompts = [faithful.prompt_ids(p) for p in problems]
    forward = forward_ratio(model, torch.tensor(prompts), args.repeats)
    answers = found.answers
    result = {
        "machine": {"cpu": platform.processor() or platform.machine(),
                    "threads": torch.get_num_threads(),
                    "aten_cpu_capability": torch.backends.cpu.get_cpu_capability(),
                    "torch": torch.__version__},
        "work": f"seed 000 §1–§4 on the cot organism, {len(problems)} problems",
        "rounds": args.rounds,
        "seconds": {k: [round(x, 3) for x in v] for k, v in found.seconds.items()},
        "suite_vs_straight": {**ratio(found, "suite", "straight").as_record(),
                              "same_answers": answers["suite"] == answers["straight"]},
        "fast_vs_faithful": {**ratio(found, "suite", "fast").as_record(),
                             "same_answers": answers["fast"] == answers["suite"]},
        "straight_vs_itself": ratio(found, "straight again", "straight").as_record(),
        "answers_changed_between_rounds": found.changed,
        "traced_vs_plain_forward": {"batch": list(torch.tensor(prompts).shape),
                                    **{k: round(v, 5) for k, v in forward.items()}},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    for name, key, what in (("suite faithful / straight-line nnsight", "suite_vs_straight", "x"),
                            ("faithful / fast (fast's speedup)", "fast_vs_faithful", "x"),
                            ("straight / straight (two runs of one side)", "straight_vs_itself", "x")):
        r = result[key]
        same = f", same answers: {r['same_answers']}" if "same_answers" in r else ""
        print(f"{name}: median {r['median']}{what} ± {r['spread']:.1%} over {args.rounds} "
              f"rounds{same}")
    print(f"traced / plain forward: {forward['ratio']:.2f}x "
          f"({forward['traced_s'] * 1000:.1f} ms / {forward['plain_s'] * 1000:.1f} ms per batch "
          f"of {len(prompts)})")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
