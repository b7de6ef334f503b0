"""Seed 003 §2 and §4's error filter: behavioural scoring of the evaluation and patching sets."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import Counterfactual, EvalRow, VisibilityRow


@dataclass
class Behaviour:
    """§2: accuracy overall and split by whose container is asked about."""

    overall: float
    own: float
    other: float
    n_own: int
    n_other: int
    predictions: list[str]

    @property
    def most_common(self) -> list[str | int]:
        """§2: the most frequent prediction and its count."""
        word, count = Counter(self.predictions).most_common(1)[0]
        return [word, count]


def behaviour(runner: LookbackRunner, rows: list[EvalRow]) -> Behaviour:
    """§2: score one evaluation set."""
    preds = runner.predict([r.prompt for r in rows])
    ok = [p == r.ans for p, r in zip(preds, rows)]
    own = [k for k, r in zip(ok, rows) if r.own]
    other = [k for k, r in zip(ok, rows) if not r.own]
    return Behaviour(round(sum(ok) / len(ok), 3), round(sum(own) / len(own), 3),
                     round(sum(other) / len(other), 3), len(own), len(other), preds)


@dataclass
class VisibilityScores:
    """§2: the visibility condition, observer and non-observer scored apart and paired, with the
    answers each question got."""

    observer: float
    non_observer: float
    paired: float
    n: int
    observer_predictions: list[str]
    non_observer_predictions: list[str]


def visibility(runner: LookbackRunner, rows: list[VisibilityRow]) -> VisibilityScores:
    """§2: each visibility story asked of its observer and of its non-observer."""
    obs = runner.predict([r.observer[0] for r in rows])
    non = runner.predict([r.non_observer[0] for r in rows])
    ok_obs = [p == r.observer[1] for p, r in zip(obs, rows)]
    ok_non = [p == r.non_observer[1] for p, r in zip(non, rows)]
    n = len(rows)
    return VisibilityScores(round(sum(ok_obs) / n, 3), round(sum(ok_non) / n, 3),
                            round(sum(a and b for a, b in zip(ok_obs, ok_non)) / n, 3), n,
                            obs, non)


@dataclass
class FilterAnswers:
    """§4 error filtering: each offered row's answer on its clean and counterfactual prompt."""

    clean: list[str]
    cf: list[str]


def filter_answers(runner: LookbackRunner, rows: list[Counterfactual]) -> FilterAnswers:
    """§4 error filtering: every row asked on its clean and on its counterfactual prompt."""
    return FilterAnswers(runner.predict([r.clean for r in rows]),
                         runner.predict([r.cf for r in rows]))


def keep_correct(rows: list[Counterfactual], answers: FilterAnswers) -> list[Counterfactual]:
    """§4 error filtering: keep samples answered correctly on both clean and counterfactual."""
    return [r for r, a, b in zip(rows, answers.clean, answers.cf)
            if a == r.clean_ans and b == r.cf_ans]
