"""The cot organism's own competence: it solves every problem it was trained on."""
from __future__ import annotations

import pytest

from harness.models.loaded import load
from harness.sources import get_profile
from harness.sources.cot import organism
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import solution
from harness.sources.cot.text import parse_answer

pytestmark = pytest.mark.meta  # re-runs the organism: `make test-meta`
TRACE_CAP = 400  # tokens: far longer than any organism trace


def test_cot_organism_solves_every_training_problem():
    tiny = get_profile("tiny")
    runner = CotRunner(load(tiny.models["cot"]), tiny.sizes["cot"])
    answers = {}
    for p in organism.training_problems():
        gen = runner.generate(runner.prompt_ids(p), TRACE_CAP)
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        answers[p] = parse_answer(runner.decode(gen[close:])) if close is not None else None
    wrong = {p: a for p, a in answers.items() if a != solution(p)}
    assert answers and not wrong
