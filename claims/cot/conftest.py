"""Session fixtures for seed 000: each experiment runs once per session, only if a test needs it."""
from __future__ import annotations

import pytest

from harness.models import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.profiles import Profile
from harness.sources.cot import decode as cot_decode
from harness.sources.cot import patching as cot_patching
from harness.sources.cot import traces as cot
from harness.sources.cot.chat import ThinkTemplate, think_template
from harness.sources.cot.forcing import (ForcedPair, cut_probe, full_corruption,
                                         last_answer_corruption)
from harness.sources.cot.mistakes import (CueCounts, Rederivation, SingleMistake, SpliceControl,
                                          cue_counts, rederivation, single_mistake, splice_control)
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import AUDITED_PROBLEM, PROBLEMS


@pytest.fixture(scope="session")
def cot_tokenizer(profile: Profile):
    """Seed 000's tokenizer alone: the published one from the hub cache, or the organism's."""
    return load_tokenizer(profile.models["cot"])


@pytest.fixture(scope="session")
def cot_think_template(cot_tokenizer) -> ThinkTemplate:
    return think_template(cot_tokenizer)


@pytest.fixture(scope="session")
def cot_runner(cot_model: Loaded, profile: Profile) -> CotRunner:
    return CotRunner(cot_model, profile.sizes["cot"])


@pytest.fixture(scope="session")
def cot_baseline(cot_runner: CotRunner) -> cot.Baseline:
    return cot.baseline(cot_runner, PROBLEMS)


@pytest.fixture(scope="session")
def cot_usable(cot_baseline: cot.Baseline) -> list[cot.Trace]:
    if not cot_baseline.usable:
        raise RuntimeError("no usable baseline trace: every later section would run on nothing")
    return cot_baseline.usable


@pytest.fixture(scope="session")
def cot_single_mistake(cot_runner, cot_usable) -> SingleMistake:
    return single_mistake(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_pairs(cot_runner, cot_usable) -> list[cot_patching.Pair]:
    return cot_patching.pairs(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_screen(cot_runner, cot_pairs) -> cot_patching.LayerScreen:
    return cot_patching.layer_screen(cot_runner, cot_pairs)


@pytest.fixture(scope="session")
def cot_continuations(cot_runner, cot_pairs, cot_screen) -> cot_patching.Continuations:
    return cot_patching.full_continuations(cot_runner, cot_pairs, cot_screen.best_layer)


@pytest.fixture(scope="session")
def cot_first_trace(cot_usable) -> cot.Trace:
    """§6 runs its single-problem anchors on problem 0 (the first usable trace)."""
    return cot_usable[0]


@pytest.fixture(scope="session")
def cot_restatements(cot_runner, cot_usable) -> cot.Restatements:
    return cot.restatements(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_early(cot_runner, cot_usable) -> cot.EarlyAnswering:
    return cot.early_answering(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_splice(cot_runner, cot_usable) -> SpliceControl:
    return splice_control(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_rederivation(cot_usable, cot_single_mistake) -> Rederivation:
    return rederivation(cot_usable, cot_single_mistake)


@pytest.fixture(scope="session")
def cot_cues(cot_runner, cot_usable, cot_single_mistake) -> CueCounts:
    return cue_counts(cot_runner, cot_usable, cot_single_mistake)


@pytest.fixture(scope="session")
def cot_last_answer(cot_runner, cot_usable) -> ForcedPair:
    return last_answer_corruption(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_full_corruption(cot_runner, cot_usable) -> ForcedPair:
    return full_corruption(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_cut_probe(cot_runner, cot_usable) -> ForcedPair:
    return cut_probe(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_step_shapes(cot_runner) -> cot_decode.StepShapes:
    return cot_decode.step_shapes(cot_runner, cot_runner.prompt_ids(AUDITED_PROBLEM))


@pytest.fixture(scope="session")
def cot_noop(cot_runner, cot_usable) -> cot_decode.NoopRuns:
    return cot_decode.noop_runs(cot_runner, cot_usable)


@pytest.fixture(scope="session")
def cot_fire_once(cot_runner, cot_first_trace) -> cot_decode.FireOnce:
    return cot_decode.fire_once(cot_runner, cot_first_trace)


@pytest.fixture(scope="session")
def cot_specificity(cot_runner, cot_first_trace) -> cot_decode.Specificity:
    return cot_decode.post_answer_specificity(cot_runner, cot_first_trace)


@pytest.fixture(scope="session")
def cot_self_patch(cot_runner, cot_pairs) -> cot_patching.SelfPatch:
    return cot_patching.self_patch(cot_runner, cot_pairs)


@pytest.fixture(scope="session")
def cot_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "cot")
