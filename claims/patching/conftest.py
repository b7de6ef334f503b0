"""Package fixtures for seed 004: the minimal pairs and every patching run, computed once; the
model is released when this folder's tests are done."""
from __future__ import annotations

import pytest

from harness import catalogue
from harness.models.backends import Backend
from harness.models.loaded import Loaded, load_tokenizer
from harness.plugin import model_for
from harness.profiles import Mode, Profile
from harness.fire_once import NEEDS_LOCAL_WEIGHTS, FireOnce
from harness.sources import source
from harness.sources.patching import experiments as patching
from harness.sources.patching import fire_once, readback
from harness.sources.patching import task as ioi
from harness.sources.patching.crosscheck import (TL_MODEL, TransformerLensCrosscheck,
                                                 transformerlens_crosscheck)


@pytest.fixture(scope="package")
def patching_tokenizer(profile: Profile):
    """Seed 004's tokenizer alone: the published GPT-2's from the hub cache, or the organism's."""
    return load_tokenizer(profile.models["patching"])


@pytest.fixture(scope="package")
def seed_pair(patching_model: Loaded) -> patching.PairIds:
    """The seed's pair: 'John gave the book to' (clean) vs 'Mary gave the book to'."""
    return patching.pair_ids(patching_model, *ioi.PAIRS["seed"])


@pytest.fixture(scope="package")
def ioi_pair(patching_model: Loaded) -> patching.PairIds:
    """The corrected pair: the expected name is in context; the corrupted run swaps the names."""
    return patching.pair_ids(patching_model, *ioi.PAIRS["ioi"])


@pytest.fixture(scope="package")
def seed_runs(patching_model, seed_pair) -> patching.PairRuns:
    return patching.pair_runs(patching_model, seed_pair)


@pytest.fixture(scope="package")
def ioi_runs(patching_model, ioi_pair) -> patching.PairRuns:
    return patching.pair_runs(patching_model, ioi_pair)


@pytest.fixture(scope="package")
def patch_layer(profile: Profile) -> int:
    return profile.sizes["patching"].patch_layer


@pytest.fixture(scope="package")
def seed_full_patch(patching_model, seed_pair, seed_runs) -> patching.FullPatchIdentity:
    return patching.full_patch_identity(patching_model, seed_pair, seed_runs)


@pytest.fixture(scope="package")
def seed_hook_reference(backend: Backend, patching_model, seed_pair,
                        seed_runs) -> patching.HookReference:
    if backend is Backend.NDIF:
        pytest.skip("the hook reference is a plain-PyTorch forward with a forward hook, which "
                    "needs the weights here; on NDIF they are not (no claim requires it)")
    return patching.hook_reference(patching_model, seed_pair, seed_runs)


def _local_weights(backend: Backend) -> None:
    """Fire-once anchors hook the transformers modules: they need the weights in this process."""
    if backend is Backend.NDIF:
        pytest.skip(NEEDS_LOCAL_WEIGHTS)


@pytest.fixture(scope="package")
def seed_whole_stream_fires(backend: Backend, patching_model, seed_pair) -> FireOnce:
    _local_weights(backend)
    return fire_once.whole_stream_fires(patching_model, seed_pair)


@pytest.fixture(scope="package")
def seed_sweep_fires(backend: Backend, patching_model, seed_pair, mode: Mode) -> FireOnce:
    _local_weights(backend)
    return fire_once.position_sweep_fires(patching_model, seed_pair, mode is Mode.FAST)


@pytest.fixture(scope="package")
def seed_layer_flip_fires(backend: Backend, patching_model, seed_pair, patch_layer) -> FireOnce:
    _local_weights(backend)
    return fire_once.layer_flip_fires(patching_model, seed_pair, patch_layer)


@pytest.fixture(scope="package")
def seed_transformerlens(profile: Profile, backend: Backend, patching_model, seed_pair, seed_runs,
                         patch_layer) -> TransformerLensCrosscheck:
    """The seed's own library on the seed's pair; a skip where it cannot run."""
    if backend is Backend.NDIF:
        pytest.skip("the TransformerLens cross-check loads GPT-2's weights here, and NDIF's GPT-2 "
                    "may run another dtype, so the two need not compute the same logits")
    if not profile.published:
        ours = ("seeded random weights in the published GPT-2's files"
                if profile.rules.published_files else "the tiny organism")
        pytest.skip(f"the TransformerLens cross-check needs the published GPT-2 weights: "
                    f"TransformerLens converts our model (hf_model=) into its own {TL_MODEL!r}, "
                    f"built at the published GPT-2's shapes, and the {profile.name.value} "
                    f"profile's model is {ours}, of other shapes")
    tl = pytest.importorskip("transformer_lens", reason="transformer-lens is not installed "
                             "(pip install -e '.[crosscheck]')")
    return transformerlens_crosscheck(tl, patching_model, seed_pair, seed_runs, patch_layer,
                                      ioi.CLEAN, ioi.CORRUPTED)


@pytest.fixture(scope="package")
def seed_behaviour(patching_model, seed_pair, seed_runs) -> patching.Behaviour:
    return patching.behaviour(patching_model, seed_pair, seed_runs)


@pytest.fixture(scope="package")
def seed_layer_flip(patching_model, seed_pair, seed_runs, patch_layer) -> patching.LayerFlip:
    return patching.layer_flip(patching_model, seed_pair, seed_runs, patch_layer)


@pytest.fixture(scope="package")
def seed_sweep(patching_model, seed_pair, seed_runs, mode: Mode) -> patching.Sweep:
    return patching.sweep(patching_model, seed_pair, seed_runs, mode is Mode.FAST)


@pytest.fixture(scope="package")
def ioi_behaviour(patching_model, ioi_pair, ioi_runs) -> patching.Behaviour:
    return patching.behaviour(patching_model, ioi_pair, ioi_runs)


@pytest.fixture(scope="package")
def ioi_sweep(patching_model, ioi_pair, ioi_runs, mode: Mode) -> patching.Sweep:
    return patching.sweep(patching_model, ioi_pair, ioi_runs, mode is Mode.FAST)


@pytest.fixture(scope="package")
def pair_behaviours(seed_behaviour, ioi_behaviour) -> dict[str, patching.Behaviour]:
    """Both pairs' behaviour, by pair."""
    return {"seed": seed_behaviour, "ioi": ioi_behaviour}


@pytest.fixture(scope="package")
def sweep_coverage(patching_model, seed_pair, seed_sweep, ioi_pair, ioi_sweep) -> dict[str, list[str]]:
    """Each pair's sweep against every block and position (in the session's mode)."""
    return {"seed": readback.coverage_gaps(patching_model, seed_pair, seed_sweep),
            "ioi": readback.coverage_gaps(patching_model, ioi_pair, ioi_sweep)}


@pytest.fixture(scope="package")
def sweep_rows(patching_model, seed_pair, seed_runs, seed_sweep, ioi_pair, ioi_runs,
               ioi_sweep) -> dict[str, readback.SoloRows]:
    """A few cells of each pair's sweep (in the session's mode) re-run as one patch each."""
    return {"seed": readback.solo_rows(patching_model, seed_pair, seed_runs, seed_sweep),
            "ioi": readback.solo_rows(patching_model, ioi_pair, ioi_runs, ioi_sweep)}


@pytest.fixture(scope="package")
def patching_model(request: pytest.FixtureRequest) -> Loaded:
    """This source's model on the session's profile."""
    return model_for(request, "patching")


@pytest.fixture(scope="package")
def patching_breakages(profile: Profile, patching_model: Loaded) -> dict:
    """The breakage catalogue's outcome on the organism (a skip on other profiles)."""
    if not profile.models["patching"].organism:
        pytest.skip(catalogue.ORGANISMS_ONLY)
    return catalogue.measured(catalogue.run(source("patching"), (patching_model, profile.sizes["patching"])))
