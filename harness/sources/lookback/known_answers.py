"""Seed 003 §4–§7's known answers: what each study must recover on the compiled organism (its
manifest's "planted" block, issue 29), declared once for the claims, whose own test bodies the
checks below run on the declared graph (steps.STEPS) on a few rows and judge
(harness.known_answer_studies), so a broken write shows as a missed mechanism."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from harness import known_answer_studies
from harness.criteria import FittedNotRandom, KnownAnswer, StepAt, Window
from harness.declared_steps import Resolved
from harness.models.handle import Loaded
from harness.sources.lookback.sizes import LookbackSizes
from harness.sources.lookback.steps import STEPS

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
CHECK_ROWS = 8  # rows each check runs: the first of each seeded set, as its error filter keeps them


def few(sizes: LookbackSizes) -> LookbackSizes:
    """The checks' sizes: the first CHECK_ROWS rows of each seeded set."""
    return replace(sizes, sample_cap=CHECK_ROWS)


def resolved(model: Loaded, sizes: LookbackSizes) -> Resolved:
    """The declared steps on `model` at `sizes` (faithful), each run once when first read, from
    the modules imported now."""
    return Resolved(STEPS, {"lookback_model": model, "lookback_tokenizer": model.tok,
                            "lookback_sizes": sizes})


def studies(model: Loaded, sizes: LookbackSizes) -> dict[str, Callable[[], dict[str, Any]]]:
    """For each claim that declares a known answer, what its own test body measures on the
    first CHECK_ROWS rows of each seeded set that the error filter keeps, every layer of `sizes`
    (§7 at the reversed curve's peak, as the claim)."""
    return known_answer_studies.studies(_folder(), resolved(model, few(sizes)))


def checks(model: Loaded, sizes: LookbackSizes, planted: dict[str, Any]
           ) -> dict[str, Callable[[], list[str]]]:
    """For each claim that declares a known answer, a check (no failures: an empty list) that
    runs its study and judges the result against `planted`."""
    return known_answer_studies.checks(_folder(), resolved(model, few(sizes)), planted)


def curves(model: Loaded, sizes: LookbackSizes) -> dict[str, float]:
    """The curves each study's known answer judges, flattened to `<claim>.<curve>.<layer or
    rank>` (the manifest's re-measured IIA)."""
    flat: dict[str, float] = {}
    found = studies(model, sizes)
    for claim_id in KNOWN:  # in the manifest's order
        measured = found[claim_id]()
        index = measured.get("ranks") or range(model.hf.config.num_hidden_layers)
        for key in KNOWN[claim_id].criterion.curves:
            flat.update({f"{claim_id.split('.', 1)[1]}.{key}.{i}": round(v, 4)
                         for i, v in zip(index, measured[key])})
    return flat


def _folder() -> Path:
    """The lookback claims' folder, whose declarations say what each study reads."""
    from harness.registry import source

    return source("lookback").claims_folder()
