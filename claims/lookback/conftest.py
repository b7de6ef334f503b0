"""Fixtures for seed 003: each experiment runs once, only if a test needs it. They are
package-scoped, so the model and what was measured on it are released once this folder's tests
are done."""
from __future__ import annotations

import pytest

from harness import catalogue
from harness.models.loaded import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.plugin.forcing import passed_or_forced
from harness.profiles import Mode, Profile
from harness.sources import source
from harness.sources.lookback.answers import AnswerSweep, answer_sweep
from harness.sources.lookback.behaviour import (Behaviour, VisibilityScores, behaviour,
                                                keep_correct, visibility)
from harness.models.backends import Backend
from harness.fire_once import NEEDS_LOCAL_WEIGHTS, FireOnce
from harness.sources.lookback.fire_once import (answer_fires, interchange_fires, low_rank_fires,
                                                source_fires)
from harness.sources.lookback import readback
from harness.sources.lookback.identity import SelfPatch, self_patch
from harness.sources.lookback.interchange import SourceSweep, Sweep, binding_sweep, source_sweep
from harness.sources.lookback.low_rank import LowRank, low_rank
from harness.sources.lookback.positions import (InterventionTokens, PromptAlignment,
                                                SingleTokenEntities, intervention_tokens,
                                                prompt_alignment, single_token_entities)
from harness.sources.lookback.runner import LookbackRunner
from harness.sources.lookback.sizes import LookbackSizes
from harness.sources.lookback.task import (EVAL_CONDITIONS, INSTRUCTION, Counterfactual,
                                           build_answer, build_binding, build_eval, build_source,
                                           build_visibility)


@pytest.fixture(scope="package")
def lookback_tokenizer(profile: Profile):
    """Llama-3.1's tokenizer on the published profile; the tiny word-level one otherwise."""
    return load_tokenizer(profile.models["lookback"])


@pytest.fixture(scope="package")
def lookback_instruction(lookback_sizes: LookbackSizes) -> str:
    """The instruction this profile's prompts carry (the organism's prompts drop it)."""
    return INSTRUCTION if lookback_sizes.with_instruction else ""


@pytest.fixture(scope="package")
def lookback_sizes(profile: Profile, mode: Mode) -> LookbackSizes:
    """This profile's sizes for seed 003, batched as `mode` says."""
    return profile.sizes["lookback"].in_mode(mode)


@pytest.fixture(scope="package")
def lookback_single_tokens(lookback_tokenizer) -> SingleTokenEntities:
    return single_token_entities(lookback_tokenizer)


@pytest.fixture(scope="package")
def lookback_alignment(lookback_tokenizer, lookback_instruction) -> PromptAlignment:
    return prompt_alignment(lookback_tokenizer, lookback_instruction)


@pytest.fixture(scope="package")
def lookback_intervention_tokens(lookback_tokenizer, lookback_instruction) -> InterventionTokens:
    return intervention_tokens(lookback_tokenizer, lookback_instruction)


@pytest.fixture(scope="package")
def lookback_runner(lookback_model: Loaded, lookback_sizes: LookbackSizes) -> LookbackRunner:
    return LookbackRunner(lookback_model, lookback_sizes)


@pytest.fixture(scope="package")
def lookback_behaviour(lookback_runner, lookback_instruction,
                       lookback_sizes) -> dict[str, Behaviour]:
    """§2: belief, reality and explicit 'cannot observe', each on the evaluation sample set."""
    return {name: behaviour(lookback_runner, lookback_sizes.first(
                build_eval(instruction=lookback_instruction, **kw)))
            for name, kw in EVAL_CONDITIONS.items()}


@pytest.fixture(scope="package")
def lookback_visibility(lookback_runner, lookback_instruction, lookback_sizes) -> VisibilityScores:
    return visibility(lookback_runner,
                      lookback_sizes.first(build_visibility(instruction=lookback_instruction)))


@pytest.fixture(scope="package")
def lookback_binding_rows(lookback_instruction, lookback_sizes) -> list[Counterfactual]:
    return lookback_sizes.first(build_binding(instruction=lookback_instruction))


@pytest.fixture(scope="package")
def lookback_kept(lookback_runner, lookback_binding_rows) -> list[Counterfactual]:
    """§4: the binding samples answered correctly on both prompts."""
    return keep_correct(lookback_runner, lookback_binding_rows)


@pytest.fixture(scope="package")
def lookback_self_patch(lookback_runner, lookback_kept, lookback_binding_rows) -> SelfPatch:
    return self_patch(lookback_runner, lookback_kept, lookback_binding_rows)


def _local_weights(backend: Backend) -> None:
    if backend is Backend.NDIF:
        pytest.skip(NEEDS_LOCAL_WEIGHTS)


@pytest.fixture(scope="package")
def lookback_interchange_fires(backend: Backend, lookback_runner, lookback_binding_rows) -> dict[str, FireOnce]:
    _local_weights(backend)
    return interchange_fires(lookback_runner, lookback_binding_rows)


@pytest.fixture(scope="package")
def lookback_source_swap_fires(backend: Backend, lookback_runner, lookback_source_rows) -> FireOnce:
    _local_weights(backend)
    return source_fires(lookback_runner, lookback_source_rows, freeze=False)


@pytest.fixture(scope="package")
def lookback_freeze_fires(backend: Backend, lookback_runner, lookback_source_rows) -> FireOnce:
    _local_weights(backend)
    return source_fires(lookback_runner, lookback_source_rows, freeze=True)


@pytest.fixture(scope="package")
def lookback_answer_fires(backend: Backend, lookback_runner, lookback_answer_rows) -> FireOnce:
    _local_weights(backend)
    return answer_fires(lookback_runner, lookback_answer_rows)


@pytest.fixture(scope="package")
def lookback_low_rank_fires(backend: Backend, lookback_runner, lookback_binding_rows) -> FireOnce:
    _local_weights(backend)
    return low_rank_fires(lookback_runner, lookback_binding_rows)


def _why_none(what: str) -> str:
    return (f"no {what} sample survives error filtering (the model answers none of them correctly "
            f"on both prompts): nothing to patch")


@pytest.fixture(scope="package")
def lookback_patched(request, lookback_kept, lookback_binding_rows) -> list[Counterfactual]:
    """§4/§7: the kept binding samples, which every binding swap patches."""
    return passed_or_forced(request, lookback_kept, lookback_binding_rows, _why_none("binding"))


@pytest.fixture(scope="package")
def lookback_reversed(lookback_runner, lookback_patched) -> Sweep:
    return binding_sweep(lookback_runner, lookback_patched, "reversed")


@pytest.fixture(scope="package")
def lookback_same_position(lookback_runner, lookback_patched) -> Sweep:
    return binding_sweep(lookback_runner, lookback_patched, "same position")


@pytest.fixture(scope="package")
def lookback_opaque(lookback_runner, lookback_patched) -> Sweep:
    return binding_sweep(lookback_runner, lookback_patched, "opaque control")


@pytest.fixture(scope="package")
def lookback_source_rows(lookback_instruction, lookback_sizes) -> list[Counterfactual]:
    return lookback_sizes.first(build_source(instruction=lookback_instruction))


@pytest.fixture(scope="package")
def lookback_source_kept(lookback_runner, lookback_source_rows) -> list[Counterfactual]:
    """§5: the source samples answered correctly on both prompts."""
    return keep_correct(lookback_runner, lookback_source_rows)


@pytest.fixture(scope="package")
def lookback_source_patched(request, lookback_source_kept,
                            lookback_source_rows) -> list[Counterfactual]:
    """§5: the kept source samples, which both source sweeps patch."""
    return passed_or_forced(request, lookback_source_kept, lookback_source_rows,
                            _why_none("source"))


@pytest.fixture(scope="package")
def lookback_source_freeze(lookback_runner, lookback_source_patched, lookback_sizes) -> SourceSweep:
    return source_sweep(lookback_runner, lookback_source_patched,
                        lookback_sizes.source_freeze_layers, freeze=True)


@pytest.fixture(scope="package")
def lookback_source_plain(lookback_runner, lookback_source_patched, lookback_sizes) -> SourceSweep:
    return source_sweep(lookback_runner, lookback_source_patched,
                        lookback_sizes.source_plain_layers, freeze=False)


@pytest.fixture(scope="package")
def lookback_answer_rows(lookback_instruction, lookback_sizes) -> list[Counterfactual]:
    return lookback_sizes.first(build_answer(instruction=lookback_instruction))


@pytest.fixture(scope="package")
def lookback_answer_kept(lookback_runner, lookback_answer_rows) -> list[Counterfactual]:
    return keep_correct(lookback_runner, lookback_answer_rows)


@pytest.fixture(scope="package")
def lookback_answer_patched(request, lookback_answer_kept,
                            lookback_answer_rows) -> list[Counterfactual]:
    """§6: the kept answer samples, which the answer sweep patches."""
    return passed_or_forced(request, lookback_answer_kept, lookback_answer_rows,
                            _why_none("answer"))


@pytest.fixture(scope="package")
def lookback_answer(lookback_runner, lookback_answer_patched) -> AnswerSweep:
    return answer_sweep(lookback_runner, lookback_answer_patched)


@pytest.fixture(scope="package")
def lookback_binding_readback(lookback_runner, lookback_patched, lookback_reversed,
                              lookback_same_position, lookback_opaque) -> readback.Readback:
    """§4's three sweeps read back: their coverage, and a few of their rows re-run one at a time
    (in the session's mode)."""
    return readback.binding(lookback_runner, lookback_patched,
                            {"reversed": lookback_reversed,
                             "same position": lookback_same_position,
                             "opaque control": lookback_opaque})


@pytest.fixture(scope="package")
def lookback_source_readback(lookback_runner, lookback_source_patched, lookback_source_freeze,
                             lookback_source_plain) -> readback.Readback:
    """§5's two sweeps read back: their coverage, and a few of their rows re-run one at a time."""
    return readback.source(lookback_runner, lookback_source_patched,
                           {"freeze": lookback_source_freeze, "no freeze": lookback_source_plain})


@pytest.fixture(scope="package")
def lookback_answer_readback(lookback_runner, lookback_answer_patched,
                             lookback_answer) -> readback.Readback:
    """§6's sweep read back: its coverage, and a few of its rows re-run one at a time."""
    return readback.answer(lookback_runner, lookback_answer_patched, lookback_answer)


@pytest.fixture(scope="package")
def lookback_low_rank(lookback_runner, lookback_patched, lookback_reversed) -> LowRank:
    """§7 at the reversed curve's peak layer."""
    return low_rank(lookback_runner, lookback_patched, lookback_reversed.peak_layer)


@pytest.fixture(scope="package")
def lookback_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "lookback")


@pytest.fixture(scope="package")
def lookback_breakages(profile: Profile, lookback_model: Loaded, lookback_sizes) -> dict:
    """The breakage catalogue's outcome on the organism (a skip on other profiles)."""
    if not profile.models["lookback"].organism:
        pytest.skip(catalogue.ORGANISMS_ONLY)
    return catalogue.measured(catalogue.run(source("lookback"), (lookback_model, lookback_sizes)))
