"""Seed 003 §5's source sweeps and §6's answer sweep against the plain reference (issue 49;
against_reference.py says what is compared)."""
from __future__ import annotations

from typing import Callable

from harness.reference import Comparison, compare
from harness.sources.lookback import reference_sweeps
from harness.sources.lookback.against_reference import (AGREEMENT, BINDING_GOLDS, Row,
                                                        answers_of, counted, seed_rows,
                                                        sweep_rows)
from harness.sources.lookback.answers import AnswerSweep
from harness.sources.lookback.interchange import SourceSweep
from harness.sources.lookback.reference import Plain, places
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.sizes import LookbackSizes


def source(freeze: bool) -> Callable[..., Comparison]:
    """§5's source sweep, with or without the freeze, against the plain reference."""
    name = "source freeze" if freeze else "source no freeze"

    def check(run: LookbackRunner, said: str, at: LookbackSizes, patched: list[Row],
              sweep: SourceSweep) -> Comparison:
        plain, got, want = Plain(run.model), {}, {}
        swaps = seed_rows("source", said, at, patched)
        last = list(at.source_freeze_layers if freeze else at.source_plain_layers)
        recorded = answers_of(sweep.last_layers, sweep.preds)
        got["last layers"], want["last layers"] = sweep.last_layers, last
        got["n"], want["n"] = sweep.n, len(patched)
        first = next((s for s in swaps if s is not None), None)
        read, written, drinks = (reference_sweeps.source_positions(places(plain.tok, first))
                                 if first else ([], [], []))
        got["positions"] = [sweep.src, sweep.dst, sweep.frozen]
        want["positions"] = [read, written, drinks if freeze else []]
        got["curves"] = {"iia": sweep.iia, "clean_survives": sweep.clean_survives}
        want["curves"] = counted(recorded, last, swaps, BINDING_GOLDS)
        sweep_rows(got, want, patched, swaps, last, recorded,
                   lambda s, chosen: reference_sweeps.source(plain, s, places(plain.tok, s),
                                                             chosen, freeze),
                   {"target": lambda s: s.target}, {"target": lambda r: r.target})
        return compare(name, got, want, AGREEMENT)
    check.__doc__ = f"§5's {name} sweep against the plain reference."
    return check


ANSWER_GOLDS = {"clean": lambda s: s.clean_gold, "pointer": lambda s: s.target,
                "payload": lambda s: s.payload}


def answer(run: LookbackRunner, said: str, at: LookbackSizes, patched: list[Row],
           sweep: AnswerSweep) -> Comparison:
    """§6's answer sweep against the plain reference."""
    plain, got, want = Plain(run.model), {}, {}
    swaps = seed_rows("answer", said, at, patched)
    swept = list(at.sweep_layers) if at.sweep_layers is not None else list(range(len(plain.blocks)))
    recorded = answers_of(sweep.layers, sweep.preds)
    got["layers"], want["layers"] = sweep.layers, swept
    got["n"], want["n"] = sweep.n, len(patched)
    first = next((s for s in swaps if s is not None), None)
    length = places(plain.tok, first).length if first else 0
    got["positions"] = [[p % length for p in sweep.src], [p % length for p in sweep.dst]] \
        if length else [sweep.src, sweep.dst]
    want["positions"] = [[length - 1], [length - 1]]
    got["curves"] = {"clean": sweep.clean, "pointer": sweep.pointer, "payload": sweep.payload}
    want["curves"] = counted(recorded, swept, swaps, ANSWER_GOLDS)
    sweep_rows(got, want, patched, swaps, swept, recorded,
               lambda s, layers: reference_sweeps.answer(plain, s, places(plain.tok, s), layers),
               {"pointer": lambda s: s.target, "payload": lambda s: s.payload},
               {"pointer": lambda r: r.target, "payload": lambda r: r.payload})
    return compare("answer", got, want, AGREEMENT)
