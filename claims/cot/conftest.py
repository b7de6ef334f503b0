"""Package fixtures for seed 000: each experiment runs once, only if a test needs it, and the model
is released when this folder's tests are done.

A model that does not do what a step needs (a random model never closes `</think>`) is a result:
the fixture that would run on nothing skips, saying what the model did not do."""
from __future__ import annotations

import pytest

from harness import catalogue
from harness.fire_once import FireOnce
from harness.models.loaded import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.plugin.forcing import passed_or_forced
from harness.profiles import Mode, Profile
from harness.sources import source
from harness.sources.cot import decode as cot_decode
from harness.sources.cot import fire_once as cot_fire
from harness.sources.cot import patching as cot_patching
from harness.sources.cot import traces as cot
from harness.sources.cot.batched_rows import BatchedRows, batched_rows
from harness.sources.cot.chat import ThinkTemplate, think_template
from harness.sources.cot.forcing import (ForcedPair, cut_probe, full_corruption,
                                         last_answer_corruption)
from harness.sources.cot.mistakes import (CueCounts, Rederivation, SingleMistake, SpliceControl,
                                          cue_counts, rederivation, single_mistake, splice_control)
from harness.sources.cot.runner import CotRunner
from harness.sources.cot.task import AUDITED_PROBLEM, PROBLEMS


@pytest.fixture(scope="package")
def cot_tokenizer(profile: Profile):
    """Seed 000's tokenizer alone: the published one from the hub cache, or the organism's."""
    return load_tokenizer(profile.models["cot"])


@pytest.fixture(scope="package")
def cot_think_template(cot_tokenizer) -> ThinkTemplate:
    return think_template(cot_tokenizer)


@pytest.fixture(scope="package")
def cot_runner(cot_model: Loaded, profile: Profile, mode: Mode) -> CotRunner:
    sizes = profile.sizes["cot"]
    return CotRunner(cot_model, sizes, sizes.fast_batch if mode is Mode.FAST else 1,
                     profile.rules.batching_exact)


@pytest.fixture(scope="package")
def cot_baseline(cot_runner: CotRunner) -> cot.Baseline:
    return cot.baseline(cot_runner, PROBLEMS[:cot_runner.sizes.problems])


@pytest.fixture(scope="package")
def cot_batched_rows(cot_runner: CotRunner, cot_baseline: cot.Baseline) -> BatchedRows:
    """§1: a few baseline rows against one plain forward of their own prompts."""
    return batched_rows(cot_runner, cot_baseline.traces)


@pytest.fixture(scope="package")
def cot_usable(request, cot_baseline: cot.Baseline, cot_runner: CotRunner) -> list[cot.Trace]:
    """§1: the traces that closed </think> and answered correctly (forced rows on random weights:
    scripted traces of the first problems)."""
    b = cot_baseline
    closed = sum(t.close is not None for t in b.traces)
    return passed_or_forced(
        request, b.usable, lambda: cot.scripted(cot_runner, b.traces),
        f"no usable baseline trace: {closed}/{b.n} traces closed </think> within "
        f"{cot_runner.sizes.baseline_cap} tokens and {b.correct}/{b.n} answered a*b+c correctly; "
        f"every later step runs on traces that do both",
        "their generations replaced by a script that states the product and answer")


@pytest.fixture(scope="package")
def cot_spanned(cot_usable) -> list[cot.Trace]:
    """§3/§5: the usable traces that state their product a*b (the others are counted out)."""
    found = cot.spanned(cot_usable)
    if not found:
        pytest.skip(f"none of the {len(cot_usable)} usable traces states its product a*b inside "
                    f"<think>: nothing to splice at")
    return found


@pytest.fixture(scope="package")
def cot_single_mistake(cot_runner, cot_spanned) -> SingleMistake:
    return single_mistake(cot_runner, cot_spanned)


@pytest.fixture(scope="package")
def cot_pairs(request, cot_runner, cot_usable) -> list[cot_patching.Pair]:
    """§7: recipients and donors (forced rows on random weights: scripted donor traces)."""
    return passed_or_forced(
        request, cot_patching.pairs(cot_runner, cot_usable),
        lambda: cot_patching.pairs(cot_runner, cot_usable, scripted_donors=True),
        f"no §7 pair among the first {cot_runner.sizes.pairs} usable traces: none both states "
        f"its product and has a donor whose trace states the donor's product within "
        f"{cot_runner.sizes.donor_cap} tokens", "their donors' traces replaced by the script")


@pytest.fixture(scope="package")
def cot_screen(cot_runner, cot_pairs) -> cot_patching.LayerScreen:
    return cot_patching.layer_screen(cot_runner, cot_pairs)


@pytest.fixture(scope="package")
def cot_continuations(cot_runner, cot_pairs, cot_screen) -> cot_patching.Continuations:
    return cot_patching.full_continuations(cot_runner, cot_pairs, cot_screen.best_layer)


@pytest.fixture(scope="package")
def cot_first_trace(cot_usable) -> cot.Trace:
    """§6 runs its single-problem anchors on problem 0 (the first usable trace)."""
    return cot_usable[0]


@pytest.fixture(scope="package")
def cot_restatements(cot_runner, cot_usable) -> cot.Restatements:
    return cot.restatements(cot_runner, cot_usable)


@pytest.fixture(scope="package")
def cot_early(cot_runner, cot_usable) -> cot.EarlyAnswering:
    return cot.early_answering(cot_runner, cot_usable)


@pytest.fixture(scope="package")
def cot_splice(cot_runner, cot_spanned) -> SpliceControl:
    return splice_control(cot_runner, cot_spanned)


@pytest.fixture(scope="package")
def cot_rederivation(cot_spanned, cot_single_mistake) -> Rederivation:
    return rederivation(cot_spanned, cot_single_mistake)


@pytest.fixture(scope="package")
def cot_cues(cot_runner, cot_spanned, cot_single_mistake) -> CueCounts:
    return cue_counts(cot_runner, cot_spanned, cot_single_mistake)


@pytest.fixture(scope="package")
def cot_last_answer(cot_runner, cot_usable) -> ForcedPair:
    found = last_answer_corruption(cot_runner, cot_usable)
    if not found.n:
        pytest.skip(f"none of the {len(cot_usable)} usable traces restates its answer a*b+c "
                    f"inside <think>: nothing to corrupt")
    return found


@pytest.fixture(scope="package")
def cot_full_corruption(cot_runner, cot_usable) -> ForcedPair:
    return full_corruption(cot_runner, cot_usable)


@pytest.fixture(scope="package")
def cot_cut_probe(cot_runner, cot_spanned) -> ForcedPair:
    return cut_probe(cot_runner, cot_spanned)


@pytest.fixture(scope="package")
def cot_step_shapes(cot_runner) -> cot_decode.StepShapes:
    return cot_decode.step_shapes(cot_runner, cot_runner.prompt_ids(AUDITED_PROBLEM))


@pytest.fixture(scope="package")
def cot_noop(cot_runner, cot_usable) -> cot_decode.NoopRuns:
    return cot_decode.noop_runs(cot_runner, cot_usable)


@pytest.fixture(scope="package")
def cot_fire_once(cot_runner) -> cot_decode.FireOnce:
    """§6's bump audit on problem 0's prompt, whatever the model answers (the notebook's problem
    0 is its first usable trace), so it runs on random weights too."""
    return cot_decode.fire_once(cot_runner, cot_runner.prompt_ids(AUDITED_PROBLEM))


@pytest.fixture(scope="package")
def cot_noise_fires(cot_runner) -> FireOnce:
    return cot_fire.noise_fires(cot_runner)


@pytest.fixture(scope="package")
def cot_vector_fires(cot_runner) -> FireOnce:
    return cot_fire.vector_fires(cot_runner)


@pytest.fixture(scope="package")
def cot_specificity(cot_runner, cot_first_trace) -> cot_decode.Specificity:
    if cot_decode.answer_done(cot_runner, cot_first_trace.gen) is None:
        pytest.skip(f"problem {cot_first_trace.idx}'s trace writes no \\boxed{{...}} answer, so "
                    f"there is no post-answer stretch to noise")
    return cot_decode.post_answer_specificity(cot_runner, cot_first_trace)


@pytest.fixture(scope="package")
def cot_self_patch(cot_runner, cot_pairs) -> cot_patching.SelfPatch:
    return cot_patching.self_patch(cot_runner, cot_pairs)


@pytest.fixture(scope="package")
def cot_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "cot")


@pytest.fixture(scope="package")
def cot_breakages(profile: Profile, cot_model: Loaded) -> dict:
    """The breakage catalogue's outcome on the organism (a skip on other profiles)."""
    if not profile.models["cot"].organism:
        pytest.skip(catalogue.ORGANISMS_ONLY)
    return catalogue.measured(catalogue.run(source("cot"), (cot_model, profile.sizes["cot"])))
