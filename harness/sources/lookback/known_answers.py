"""Seed 003 §4–§7's known answers: what each study must recover on the compiled organism (its
manifest's "planted" block, issue 29), declared once for the claims and for the checks below,
which run a study on a few rows and judge it, so a broken write shows as a missed mechanism."""
from __future__ import annotations

from functools import cache
from typing import Any, Callable

from harness.criteria import KnownAnswer
from harness.criteria.planted import known_answer_checks
from harness.criteria import FittedNotRandom, StepAt, Window
from harness.sources.lookback.answers import answer_sweep
from harness.sources.lookback.interchange import binding_sweep, source_sweep
from harness.sources.lookback.low_rank import low_rank
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import build_answer, build_binding, build_source

KNOWN: dict[str, KnownAnswer] = {
    "lookback.reversed-curve": KnownAnswer(Window("iia", within="binding_layers"),
                                           planted="binding_layers"),
    "lookback.source-oi": KnownAnswer(StepAt("iia", at="source_from_layer"),
                                      planted="source_from_layer"),
    "lookback.source-no-freeze": KnownAnswer(StepAt("iia", at="source_from_layer"),
                                             planted="source_from_layer"),
    "lookback.answer-pointer": KnownAnswer(Window("pointer", within="pointer_layers"),
                                           planted="pointer_layers"),
    "lookback.answer-payload": KnownAnswer(StepAt("payload", at="payload_from_layer"),
                                           planted="payload_from_layer"),
    "lookback.low-rank": KnownAnswer(FittedNotRandom("ordering_id_rank"),
                                     planted="ordering_id_rank"),
}
CHECK_ROWS = 8  # rows each check runs: the first of each seeded set (§7 fits on half of them)


def studies(runner: LookbackRunner, planted: dict[str, Any]
            ) -> dict[str, Callable[[], dict[str, Any]]]:
    """For each claim in KNOWN, its study on the first CHECK_ROWS rows of its seeded set, every
    layer, returning what the claim's known answer reads."""
    kw = {"instruction": runner.instruction}
    binding = build_binding(**kw)[:CHECK_ROWS]
    source, answer = build_source(**kw)[:CHECK_ROWS], build_answer(**kw)[:CHECK_ROWS]
    layers = list(range(runner.n_layers))
    answered = cache(lambda: answer_sweep(runner, answer, layers))  # §6's two curves, one sweep
    return {
        "lookback.reversed-curve": lambda: {"iia": binding_sweep(runner, binding, "reversed",
                                                                 layers).iia},
        "lookback.source-oi": lambda: {"iia": source_sweep(runner, source, layers, True).iia},
        "lookback.source-no-freeze": lambda: {"iia": source_sweep(runner, source, layers,
                                                                  False).iia},
        "lookback.answer-pointer": lambda: {"pointer": answered().pointer},
        "lookback.answer-payload": lambda: {"payload": answered().payload},
        "lookback.low-rank": lambda: vars(low_rank(runner, binding, planted["binding_layers"][0])),
    }


def checks(runner: LookbackRunner, planted: dict[str, Any]) -> dict[str, Callable[[], list[str]]]:
    """For each claim in KNOWN, a check (no failures: an empty list) that runs its study and
    judges the result against `planted`."""
    return known_answer_checks(KNOWN, studies(runner, planted), planted)


def curves(runner: LookbackRunner, planted: dict[str, Any]) -> dict[str, float]:
    """Every study's curves, flattened to `<claim>.<curve>.<layer or rank>` (the manifest's
    re-measured IIA)."""
    flat: dict[str, float] = {}
    for claim_id, study in studies(runner, planted).items():
        measured = study()
        index = measured.get("ranks") or range(runner.n_layers)
        for key, curve in measured.items():
            if isinstance(curve, list) and key != "ranks":
                flat.update({f"{claim_id.split('.', 1)[1]}.{key}.{i}": round(v, 4)
                             for i, v in zip(index, curve)})
    return flat
