"""harness.drafting.source_stubs: the drafted source's steps, task, organism and sizes raise as
drafts, naming what is still to be written, and its steps pass the suite's step check."""
from __future__ import annotations

import pytest

from harness.declared_steps import check_steps
from tests.unit.drafting.drafted import load, write_toy


@pytest.fixture
def out(dump, tmp_path):
    return write_toy(dump, tmp_path / "draft")


def test_a_step_stub_raises_naming_what_it_must_measure(out):
    steps = load(out / "source/toy/steps.py", "toy_steps")
    with pytest.raises(NotImplementedError,
                       match="draft: step section_2 .* must measure .*effect_layer"):
        steps.section_2(None, None)


def test_the_draft_steps_pass_the_suites_step_check(out):
    check_steps("toy", load(out / "source/toy/steps.py", "toy_steps").STEPS)


def test_the_task_organism_and_sizes_stubs_raise_as_drafts(out):
    task = load(out / "source/toy/task.py", "toy_task")
    organism = load(out / "source/toy/organism.py", "toy_organism")
    sizes = load(out / "source/toy/sizes.py", "toy_sizes")
    for stub in (lambda: task.build(None), organism.build_tokenizer, sizes.tiny):
        with pytest.raises(NotImplementedError, match="^draft: "):
            stub()
