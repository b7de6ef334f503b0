"""Seed 003 §2's batched predictions read back (issue 36): every `runner.predict` batch the studies
run (§2's evaluation and visibility sets, §4's error filter on the binding, source and answer
sets) recorded one answer per row; its rates (or kept rows) count those answers, recounted here;
and its first, middle and last rows, re-run one row at a time through a plain forward of the
prompt (`final_logits`), answer what the batch recorded, in the mode under test.
"""
from __future__ import annotations

from harness.sources.lookback.behaviour import Behaviour, FilterAnswers, VisibilityScores
from harness.sources.lookback.readback_record import Readback, answered, spread
from harness.sources.lookback.runner import LookbackRunner, final_logits
from harness.sources.lookback.task import Counterfactual, EvalRow, VisibilityRow

BY = "the batch"


def asked(runner: LookbackRunner, found: Readback, what: str, prompts: list[str],
          recorded: list[str]) -> None:
    """One batched prediction: one answer recorded per prompt, and its first, middle and last
    rows re-run alone."""
    found.sweeps.append(what)
    if len(recorded) != len(prompts):
        found.gaps.append(f"{what}: {len(recorded)} answers recorded for {len(prompts)} prompts")
    for r in spread(range(min(len(prompts), len(recorded)))):
        found.cells.append(f"{what}: row {r}")
        answered(runner, found, f"{what}: row {r}", BY, recorded[r],
                 final_logits(runner, [prompts[r]])[0])


def _rate(hits: list[bool], places: int = 3) -> float:
    """§2: the fraction of `hits` that hold, as the study rounds it."""
    return round(sum(hits) / len(hits), places) if hits else 0.0


def _recounted(found: Readback, what: str, recorded: dict[str, float],
               counted: dict[str, float]) -> None:
    """Each recorded rate against the one counted here from the recorded answers."""
    found.mismatched += [f"{what}: {name} is {recorded[name]}, its recorded answers give "
                         f"{counted[name]}" for name in counted if recorded[name] != counted[name]]


def evaluation(runner: LookbackRunner, found: Readback, name: str, rows: list[EvalRow],
               scored: Behaviour) -> None:
    """§2: one evaluation condition's predictions and its overall, own and other rates."""
    preds = scored.predictions
    asked(runner, found, name, [r.prompt for r in rows], preds)
    ok = [p == r.ans for p, r in zip(preds, rows)]
    _recounted(found, name, {"overall": scored.overall, "own": scored.own, "other": scored.other},
               {"overall": _rate(ok), "own": _rate([k for k, r in zip(ok, rows) if r.own]),
                "other": _rate([k for k, r in zip(ok, rows) if not r.own])})


def visibility(runner: LookbackRunner, found: Readback, rows: list[VisibilityRow],
               scored: VisibilityScores) -> None:
    """§2: the visibility set's two questions and their rates, paired and apart."""
    obs, non = scored.observer_predictions, scored.non_observer_predictions
    asked(runner, found, "observer", [r.observer[0] for r in rows], obs)
    asked(runner, found, "non-observer", [r.non_observer[0] for r in rows], non)
    ok_obs = [p == r.observer[1] for p, r in zip(obs, rows)]
    ok_non = [p == r.non_observer[1] for p, r in zip(non, rows)]
    _recounted(found, "visibility",
               {"observer": scored.observer, "non_observer": scored.non_observer,
                "paired": scored.paired},
               {"observer": _rate(ok_obs), "non_observer": _rate(ok_non),
                "paired": _rate([a and b for a, b in zip(ok_obs, ok_non)])})


def error_filter(runner: LookbackRunner, found: Readback, what: str, rows: list[Counterfactual],
                 answers: FilterAnswers, kept: list[Counterfactual]) -> None:
    """§4's error filter on one sample set: both prompts' predictions, and the kept rows against
    the rows whose recorded answers are both right, counted here."""
    asked(runner, found, f"{what} clean", [r.clean for r in rows], answers.clean)
    asked(runner, found, f"{what} counterfactual", [r.cf for r in rows], answers.cf)
    right = [i for i, (r, a, b) in enumerate(zip(rows, answers.clean, answers.cf))
             if a == r.clean_ans and b == r.cf_ans]
    kept_at = [i for i, r in enumerate(rows) if r in kept]
    if kept_at != right or len(kept) != len(right):
        first = min(set(kept_at) ^ set(right), default=None)
        found.mismatched.append(f"{what}: the filter kept {len(kept)} rows, its recorded answers "
                                f"are both right on {len(right)} (first differing row: {first})")
