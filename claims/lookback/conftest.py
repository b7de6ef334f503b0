"""Session fixtures for seed 003: each experiment runs once per session, only if a test needs it."""
from __future__ import annotations

import pytest

from harness.plugin import model_for

from harness.sources.lookback import experiments as lookback
from harness.models import Loaded, load_tokenizer
from harness.profiles import Profile
from harness.sources.lookback.task import (INSTRUCTION, build_answer, build_binding, build_eval,
                                      build_source, build_visibility)


@pytest.fixture(scope="session")
def lookback_tokenizer(profile: Profile):
    """Llama-3.1's tokenizer on the published profile; the tiny word-level one otherwise."""
    return load_tokenizer(profile.models["lookback"])


@pytest.fixture(scope="session")
def lookback_instruction(profile: Profile) -> str:
    """The instruction this profile's prompts carry (the organism's prompts drop it)."""
    return INSTRUCTION if profile.sizes["lookback"].with_instruction else ""


@pytest.fixture(scope="session")
def lookback_runner(lookback_model: Loaded, profile: Profile) -> lookback.LookbackRunner:
    return lookback.LookbackRunner(lookback_model, profile.sizes["lookback"])


@pytest.fixture(scope="session")
def lookback_behaviour(lookback_runner, lookback_instruction) -> dict[str, lookback.Behaviour]:
    """§2: belief, reality and explicit 'cannot observe', 200 samples each from seed 0."""
    sets = {"belief": {}, "reality": {"ask_reality": True}, "explicit": {"visibility": "none"}}
    return {name: lookback.behaviour(lookback_runner, build_eval(200, seed=0,
                                                                 instruction=lookback_instruction,
                                                                 **kw))
            for name, kw in sets.items()}


@pytest.fixture(scope="session")
def lookback_visibility(lookback_runner, lookback_instruction) -> lookback.VisibilityScores:
    return lookback.visibility(lookback_runner,
                               build_visibility(200, seed=1, instruction=lookback_instruction))


@pytest.fixture(scope="session")
def lookback_binding_rows(lookback_instruction):
    return build_binding(120, seed=7, instruction=lookback_instruction)


@pytest.fixture(scope="session")
def lookback_kept(lookback_runner, lookback_binding_rows):
    """§4: the binding samples answered correctly on both prompts."""
    return lookback.keep_correct(lookback_runner, lookback_binding_rows)


def _nonempty(rows, what: str):
    """The kept samples, or a skip that says the model answers too few of them to patch."""
    if not rows:
        pytest.skip(f"no {what} sample survives error filtering (the model answers none of them "
                    f"correctly on both prompts): nothing to patch")
    return rows


@pytest.fixture(scope="session")
def lookback_sweeps(lookback_runner, lookback_kept) -> dict[str, lookback.Sweep]:
    return lookback.sweeps(lookback_runner, _nonempty(lookback_kept, "binding"))


@pytest.fixture(scope="session")
def lookback_source_kept(lookback_runner, lookback_instruction):
    """§5: build_source(120, seed=11) samples answered correctly on both prompts."""
    return lookback.keep_correct(lookback_runner,
                                 build_source(120, seed=11, instruction=lookback_instruction))


@pytest.fixture(scope="session")
def lookback_source_freeze(lookback_runner, lookback_source_kept, profile) -> lookback.SourceSweep:
    return lookback.source_sweep(lookback_runner, _nonempty(lookback_source_kept, "source"),
                                 profile.sizes["lookback"].source_freeze_layers, freeze=True)


@pytest.fixture(scope="session")
def lookback_source_plain(lookback_runner, lookback_source_kept, profile) -> lookback.SourceSweep:
    return lookback.source_sweep(lookback_runner, _nonempty(lookback_source_kept, "source"),
                                 profile.sizes["lookback"].source_plain_layers, freeze=False)


@pytest.fixture(scope="session")
def lookback_answer_rows(lookback_instruction):
    return build_answer(140, seed=13, instruction=lookback_instruction)


@pytest.fixture(scope="session")
def lookback_answer_kept(lookback_runner, lookback_answer_rows):
    return lookback.keep_correct(lookback_runner, lookback_answer_rows)


@pytest.fixture(scope="session")
def lookback_answer(lookback_runner, lookback_answer_kept) -> lookback.AnswerSweep:
    return lookback.answer_sweep(lookback_runner, _nonempty(lookback_answer_kept, "answer"))


@pytest.fixture(scope="session")
def lookback_low_rank(lookback_runner, lookback_kept, lookback_sweeps) -> lookback.LowRank:
    """§7 at the reversed curve's peak layer."""
    return lookback.low_rank(lookback_runner, lookback_kept, lookback_sweeps["reversed"].peak_layer)


@pytest.fixture(scope="session")
def lookback_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "lookback")
