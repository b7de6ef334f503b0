"""Seed 003 §4 and §6: what the direction of each finding rests on, checked on the rows it patches
(issue 36's behavioural anchor). An IIA or pointer rate counts answers equal to a target, so it
reads a move only if each patched clean run answered its own clean answer and that answer is not
the target; §6's payload rate reads a move toward the counterfactual's answer, so it also needs
each counterfactual run to answer it, and that answer to be the payload. The answers are the
error filter's recorded ones (read back by lookback.filter-readback), not re-run.
"""
from __future__ import annotations

from harness.sources.lookback.behaviour import FilterAnswers
from harness.sources.lookback.task import Counterfactual


def wrong_rows(rows: list[Counterfactual], answers: FilterAnswers, patched: list[Counterfactual],
               payload: bool) -> list[str]:
    """Each patched row whose clean run does not answer its clean answer, or whose clean answer is
    a target the finding counts; with `payload` (§6), also one whose counterfactual run does not
    answer its own answer, or whose answer is not the payload."""
    wrong = []
    for row in patched:
        i = rows.index(row) if row in rows else None
        if i is None or i >= min(len(answers.clean), len(answers.cf)):
            wrong.append(f"a patched row was not asked by the error filter: {row.clean[-60:]!r}")
            continue
        targets = {"target": row.target, **({"payload": row.payload} if payload else {})}
        if answers.clean[i] != row.clean_ans:
            wrong.append(f"row {i}: the clean run answers {answers.clean[i]!r}, not its clean "
                         f"answer {row.clean_ans!r}")
        wrong += [f"row {i}: the clean answer {row.clean_ans!r} is the {name}: a rate of it "
                  f"counts no move" for name, t in targets.items() if t == row.clean_ans]
        if payload and answers.cf[i] != row.cf_ans:
            wrong.append(f"row {i}: the counterfactual run answers {answers.cf[i]!r}, not its "
                         f"answer {row.cf_ans!r}")
        if payload and row.cf_ans != row.payload:
            wrong.append(f"row {i}: the counterfactual's answer {row.cf_ans!r} is not the payload "
                         f"{row.payload!r}")
    return wrong
