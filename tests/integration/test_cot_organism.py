"""The cot organism's own competence: it solves every problem it was trained on. The 20 seed
problems are the ones cot.baseline-accuracy decodes: where `make test`'s tiny tier measured them at
this commit (INTERP_CLAIMS_TINY, which `make test-meta` passes), their count is read from its
record and only the donors are decoded here."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from harness.models.loaded import load
from harness.reporting.environment import git_commit
from harness.reporting.record import read_record
from harness.registry import get_profile
from harness.sources.cot import organism_text
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import PROBLEMS, solution
from harness.sources.cot.text import parse_answer
from tests.paths import ROOT

pytestmark = pytest.mark.meta  # re-runs the organism: `make test-meta`
TRACE_CAP = 400  # tokens: far longer than any organism trace


def claims_baseline() -> dict[str, Any] | None:
    """cot.baseline-accuracy's measured values from the tiny tier's record at this commit, or
    None where there is none."""
    path = os.environ.get("INTERP_CLAIMS_TINY")
    if not path or not Path(path).exists():
        return None
    record = read_record(Path(path))
    entry = record.entry("cot.baseline-accuracy")
    fresh = (record.environment.get("profile") == "tiny" and record.run.completed
             and record.environment.get("commit") == git_commit(ROOT))
    return entry.measured if fresh and entry is not None and entry.measured else None


def test_cot_organism_solves_every_training_problem():
    tiny = get_profile("tiny")
    problems = organism_text.training_problems()
    measured = claims_baseline()
    if measured is not None:
        assert measured["correct"] == measured["n"] == len(PROBLEMS), measured
        problems = [p for p in problems if p not in PROBLEMS]  # the donors, decoded only here
    runner = CotRunner(load(tiny.models["cot"]), tiny.sizes["cot"])
    answers = {}
    for p in problems:
        gen = runner.generate(runner.prompt_ids(p), TRACE_CAP)
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        answers[p] = parse_answer(runner.decode(gen[close:])) if close is not None else None
    wrong = {p: a for p, a in answers.items() if a != solution(p)}
    assert answers and not wrong
