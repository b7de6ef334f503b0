"""Session fixtures for seed 003: each experiment runs once per session, only if a test needs it."""
from __future__ import annotations

import pytest

from harness.models import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.profiles import Profile
from harness.sources.lookback.answers import AnswerSweep, answer_sweep
from harness.sources.lookback.behaviour import (Behaviour, VisibilityScores, behaviour,
                                                keep_correct, visibility)
from harness.sources.lookback.identity import SelfPatch, self_patch
from harness.sources.lookback.interchange import SourceSweep, Sweep, source_sweep, sweeps
from harness.sources.lookback.low_rank import LowRank, low_rank
from harness.sources.lookback.positions import (PromptAlignment, SingleTokenEntities,
                                                prompt_alignment, single_token_entities)
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.task import (EVAL_CONDITIONS, INSTRUCTION, Counterfactual,
                                           build_answer, build_binding, build_eval, build_source,
                                           build_visibility)


@pytest.fixture(scope="session")
def lookback_tokenizer(profile: Profile):
    """Llama-3.1's tokenizer on the published profile; the tiny word-level one otherwise."""
    return load_tokenizer(profile.models["lookback"])


@pytest.fixture(scope="session")
def lookback_instruction(profile: Profile) -> str:
    """The instruction this profile's prompts carry (the organism's prompts drop it)."""
    return INSTRUCTION if profile.sizes["lookback"].with_instruction else ""


@pytest.fixture(scope="session")
def lookback_single_tokens(lookback_tokenizer) -> SingleTokenEntities:
    return single_token_entities(lookback_tokenizer)


@pytest.fixture(scope="session")
def lookback_alignment(lookback_tokenizer, lookback_instruction) -> PromptAlignment:
    return prompt_alignment(lookback_tokenizer, lookback_instruction)


@pytest.fixture(scope="session")
def lookback_runner(lookback_model: Loaded, profile: Profile) -> LookbackRunner:
    return LookbackRunner(lookback_model, profile.sizes["lookback"])


@pytest.fixture(scope="session")
def lookback_behaviour(lookback_runner, lookback_instruction) -> dict[str, Behaviour]:
    """§2: belief, reality and explicit 'cannot observe', each on the evaluation sample set."""
    return {name: behaviour(lookback_runner, build_eval(instruction=lookback_instruction, **kw))
            for name, kw in EVAL_CONDITIONS.items()}


@pytest.fixture(scope="session")
def lookback_visibility(lookback_runner, lookback_instruction) -> VisibilityScores:
    return visibility(lookback_runner, build_visibility(instruction=lookback_instruction))


@pytest.fixture(scope="session")
def lookback_binding_rows(lookback_instruction) -> list[Counterfactual]:
    return build_binding(instruction=lookback_instruction)


@pytest.fixture(scope="session")
def lookback_kept(lookback_runner, lookback_binding_rows) -> list[Counterfactual]:
    """§4: the binding samples answered correctly on both prompts."""
    return keep_correct(lookback_runner, lookback_binding_rows)


@pytest.fixture(scope="session")
def lookback_self_patch(lookback_runner, lookback_kept, lookback_binding_rows) -> SelfPatch:
    return self_patch(lookback_runner, lookback_kept, lookback_binding_rows)


def _nonempty(rows, what: str):
    """The kept samples, or a skip that says the model answers too few of them to patch."""
    if not rows:
        pytest.skip(f"no {what} sample survives error filtering (the model answers none of them "
                    f"correctly on both prompts): nothing to patch")
    return rows


@pytest.fixture(scope="session")
def lookback_sweeps(lookback_runner, lookback_kept) -> dict[str, Sweep]:
    return sweeps(lookback_runner, _nonempty(lookback_kept, "binding"))


@pytest.fixture(scope="session")
def lookback_source_rows(lookback_instruction) -> list[Counterfactual]:
    return build_source(instruction=lookback_instruction)


@pytest.fixture(scope="session")
def lookback_source_kept(lookback_runner, lookback_source_rows) -> list[Counterfactual]:
    """§5: the source samples answered correctly on both prompts."""
    return keep_correct(lookback_runner, lookback_source_rows)


@pytest.fixture(scope="session")
def lookback_source_freeze(lookback_runner, lookback_source_kept, profile) -> SourceSweep:
    return source_sweep(lookback_runner, _nonempty(lookback_source_kept, "source"),
                        profile.sizes["lookback"].source_freeze_layers, freeze=True)


@pytest.fixture(scope="session")
def lookback_source_plain(lookback_runner, lookback_source_kept, profile) -> SourceSweep:
    return source_sweep(lookback_runner, _nonempty(lookback_source_kept, "source"),
                        profile.sizes["lookback"].source_plain_layers, freeze=False)


@pytest.fixture(scope="session")
def lookback_answer_rows(lookback_instruction) -> list[Counterfactual]:
    return build_answer(instruction=lookback_instruction)


@pytest.fixture(scope="session")
def lookback_answer_kept(lookback_runner, lookback_answer_rows) -> list[Counterfactual]:
    return keep_correct(lookback_runner, lookback_answer_rows)


@pytest.fixture(scope="session")
def lookback_answer(lookback_runner, lookback_answer_kept) -> AnswerSweep:
    return answer_sweep(lookback_runner, _nonempty(lookback_answer_kept, "answer"))


@pytest.fixture(scope="session")
def lookback_low_rank(lookback_runner, lookback_kept, lookback_sweeps) -> LowRank:
    """§7 at the reversed curve's peak layer."""
    return low_rank(lookback_runner, lookback_kept, lookback_sweeps["reversed"].peak_layer)


@pytest.fixture(scope="session")
def lookback_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "lookback")
