"""Seed 003's studies against the plain reference (issue 49; reference*.py): on the first, middle
and last rows, each answer a study recorded equals the one a plain forward of that row gives
(every sampled layer), each row is the seed's row with the seed's answers and targets, and every
rate the study recorded equals the reference's count of the study's recorded answers against the
reference's own answers and targets; the positions, layers and counts it recorded are the seed's.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Sequence

from harness.reference import Agreement, Comparison, compare, sampled
from harness.sources.lookback import reference, reference_sweeps
from harness.sources.lookback.behaviour import Behaviour, FilterAnswers, VisibilityScores
from harness.sources.lookback.interchange import Sweep
from harness.sources.lookback.reference import Answer, Plain, Swap, places, rate
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.sizes import LookbackSizes
from harness.sources.lookback.task import Counterfactual

AGREEMENT = Agreement(0.0, why=(
    "answers and counts exactly, and each rate exactly as the reference counts the study's "
    "recorded answers; a batched row's recorded answer also agrees with a one-row forward whose "
    "top logit it lies within a near tie of (float32: 1e-5 of the top logit, bf16: 2^-5), since "
    "a batch shape moves a logit by that much"))
Values = dict[str, Any]
Row = Counterfactual


def cap(at: LookbackSizes) -> int:
    """How many rows of each seeded set this profile runs (sizes.first): all where uncapped."""
    return at.sample_cap if at.sample_cap is not None else 10 ** 9


def story(text: str | None) -> str | None:
    """A prompt from its story on (the instruction it carries is the profile's)."""
    return text[text.index("Story:"):] if text else None


def recorded_at(recorded: Sequence[Any], i: int) -> Any:
    """What a study recorded for row `i`, or None where it recorded none."""
    return recorded[i] if 0 <= i < len(recorded) else None


def behaviour(run: LookbackRunner, said: str, at: LookbackSizes,
              scored: dict[str, Behaviour]) -> Comparison:
    """§2: each condition's sampled answers, its rates and counts; belief's commonest answer."""
    plain, got, want = Plain(run.model), {}, {}
    for name in reference.CONDITIONS:
        asked = reference.evaluation(said, cap(at), name)
        b = scored[name]
        preds = b.predictions
        for i in sampled(len(asked)):
            got[f"{name} row {i}"] = recorded_at(preds, i)
            want[f"{name} row {i}"] = plain.answer(asked[i].prompt).matching(recorded_at(preds, i))
        ok = [p == a.gold for p, a in zip(preds, asked)]
        got[f"{name} rates"] = {"overall": b.overall, "own": b.own, "other": b.other,
                                "n_own": b.n_own, "n_other": b.n_other, "n": len(preds)}
        want[f"{name} rates"] = {
            "overall": rate(ok, 3), "own": rate([k for k, a in zip(ok, asked) if a.own], 3),
            "other": rate([k for k, a in zip(ok, asked) if not a.own], 3),
            "n_own": sum(a.own for a in asked), "n_other": sum(not a.own for a in asked),
            "n": len(asked)}
    belief = scored["belief"].predictions
    got["belief commonest"] = scored["belief"].most_common
    want["belief commonest"] = list(Counter(belief).most_common(1)[0]) if belief else None
    return compare("behaviour", got, want, AGREEMENT)


def visibility(run: LookbackRunner, said: str, at: LookbackSizes,
               seen: VisibilityScores) -> Comparison:
    """§2: the visibility set's sampled answers, both questions, and its three rates."""
    plain, got, want = Plain(run.model), {}, {}
    asked = reference.visibility(said, cap(at))
    recorded = {"observer": seen.observer_predictions, "non-observer": seen.non_observer_predictions}
    for i in sampled(len(asked)):
        for side, question in zip(recorded, asked[i]):
            got[f"{side} row {i}"] = recorded_at(recorded[side], i)
            want[f"{side} row {i}"] = plain.answer(question.prompt).matching(recorded_at(recorded[side], i))
    ok = {side: [p == q[n].gold for p, q in zip(recorded[side], asked)]
          for n, side in enumerate(recorded)}
    got["rates"] = {"observer": seen.observer, "non_observer": seen.non_observer,
                    "paired": seen.paired, "n": seen.n}
    want["rates"] = {"observer": rate(ok["observer"], 3), "non_observer": rate(ok["non-observer"], 3),
                     "paired": rate([a and b for a, b in zip(*ok.values())], 3), "n": len(asked)}
    return compare("visibility", got, want, AGREEMENT)


Build = Callable[[str, int], list[Swap]]
SETS: dict[str, Build] = {"binding": reference.binding, "source": reference.source,
                          "answer": reference.answer}


def error_filter(what: str) -> Callable[..., Comparison]:
    """§4's error filter on the `what` set: its rows, sampled answers and kept rows."""
    def check(run: LookbackRunner, said: str, at: LookbackSizes, rows: list[Row],
              answers: FilterAnswers, kept: list[Row]) -> Comparison:
        plain, got, want = Plain(run.model), {}, {}
        seed = SETS[what](said, cap(at))
        got["rows"], want["rows"] = len(rows), len(seed)
        for i in sampled(len(seed)):
            mine, clean, cf = recorded_at(rows, i), recorded_at(answers.clean, i), recorded_at(answers.cf, i)
            got[f"row {i}"] = {"story": story(mine and mine.clean), "cf story": story(mine and mine.cf),
                               "clean": clean, "cf": cf, "kept": mine in kept}
            said_clean = plain.answer(seed[i].clean).matching(clean)
            said_cf = plain.answer(seed[i].cf).matching(cf)
            want[f"row {i}"] = {"story": story(seed[i].clean), "cf story": story(seed[i].cf),
                                "clean": said_clean, "cf": said_cf,
                                "kept": said_clean == seed[i].clean_gold and said_cf == seed[i].cf_gold}
        got["kept"] = len(kept)
        want["kept"] = sum(a == s.clean_gold and b == s.cf_gold
                           for a, b, s in zip(answers.clean, answers.cf, seed))
        return compare(f"{what} filter", got, want, AGREEMENT)
    check.__doc__ = f"§4's error filter on the {what} set against the plain reference."
    return check


def seed_rows(what: str, said: str, at: LookbackSizes, patched: list[Row]) -> list[Swap | None]:
    """The seed's row behind each patched row (None where the seed's set has none)."""
    by_prompt = {s.clean: s for s in SETS[what](said, cap(at))}
    return [by_prompt.get(r.clean) for r in patched]


def counted(recorded: Callable[[int], list[str]], swept: list[int], swaps: list[Swap | None],
            golds: dict[str, Callable[[Swap], str]]) -> dict[str, list[float]]:
    """Each curve counted here: at each swept layer, the study's recorded answers equal to each
    row's gold answer for that curve (the seed's row's)."""
    return {curve: [rate([s is not None and a == gold(s) for a, s in zip(recorded(layer), swaps)],
                         4) for layer in swept] for curve, gold in golds.items()}


def answers_of(layers: list[int], preds: list[list[str]]) -> Callable[[int], list[str]]:
    """A sweep's recorded answers at a layer, by the layer (none where it recorded none)."""
    return lambda layer: preds[layers.index(layer)] if layer in layers else []


def sweep_rows(got: Values, want: Values, patched: list[Row], swaps: list[Swap | None],
               swept: list[int], recorded: Callable[[int], list[str]],
               run_row: Callable[[Swap, list[int]], dict[int, Answer]],
               golds: dict[str, Callable[[Swap], str]], mine: dict[str, Callable[[Row], Any]]) -> None:
    """The sampled rows: the row's story and golds, and its recorded answer at each sampled layer
    against the reference's."""
    layers = [swept[j] for j in sampled(len(swept))]
    for i in sampled(len(patched)):
        row, swap = patched[i], swaps[i]
        answers = {layer: recorded_at(recorded(layer), i) for layer in layers}
        got[f"row {i}"] = {"story": story(row.clean), **{k: f(row) for k, f in mine.items()},
                           "answers": answers}
        if swap is None:
            want[f"row {i}"] = "not a row of the seed's set"
            continue
        found = run_row(swap, layers)
        want[f"row {i}"] = {"story": story(swap.clean), **{k: f(swap) for k, f in golds.items()},
                            "answers": {layer: found[layer].matching(answers[layer])
                                        for layer in layers}}


BINDING_GOLDS = {"iia": lambda s: s.target, "clean_survives": lambda s: s.clean_gold}


def binding(name: str) -> Callable[..., Comparison]:
    """§4's `name` sweep against the plain reference."""
    def check(run: LookbackRunner, said: str, at: LookbackSizes, patched: list[Row],
              sweep: Sweep) -> Comparison:
        plain, got, want = Plain(run.model), {}, {}
        swaps = seed_rows("binding", said, at, patched)
        swept = (list(at.sweep_layers) if at.sweep_layers is not None
                 else list(range(len(plain.blocks))))
        recorded = answers_of(sweep.layers, sweep.preds)
        got["layers"], want["layers"] = sweep.layers, swept
        got["n"], want["n"] = sweep.n, len(patched)
        first = next((s for s in swaps if s is not None), None)
        read, written = reference_sweeps.binding_positions(places(plain.tok, first), name) if first else ([], [])
        got["positions"], want["positions"] = [sweep.src, sweep.dst], [read, written]
        curves = counted(recorded, swept, swaps, BINDING_GOLDS)
        got["curves"] = {"iia": sweep.iia, "clean_survives": sweep.clean_survives}
        want["curves"] = curves
        got["peak layer"], want["peak layer"] = sweep.peak_layer, (
            reference_sweeps.peak(curves["iia"], swept) if swept else None)
        sweep_rows(got, want, patched, swaps, swept, recorded,
                   lambda s, layers: reference_sweeps.binding(plain, s, places(plain.tok, s), name,
                                                              layers),
                   {"target": lambda s: s.target}, {"target": lambda r: r.target})
        return compare(name, got, want, AGREEMENT)
    check.__doc__ = f"§4's {name} sweep against the plain reference."
    return check
