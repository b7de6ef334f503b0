"""Seed 004's own library: the seed's run_with_hooks patch in TransformerLens against nnsight's."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from harness.declared_steps import NothingToRun
from harness.models.handle import Loaded
from harness.profiles import Profile
from harness.sources.patching.experiments import PairIds, PairRuns, patched_logits
from harness.sources.patching.task import CLEAN, CORRUPTED

TL_MODEL = "gpt2"  # TransformerLens' name for the published GPT-2 small


@dataclass
class TransformerLensCrosscheck:
    """The largest final-position logit difference between TransformerLens' patch and ours."""

    layer: int
    max_abs_logit_diff: float


def transformerlens_crosscheck(tl: ModuleType, model: Loaded, pair: PairIds, runs: PairRuns,
                               layer: int, clean: str, corrupted: str) -> TransformerLensCrosscheck:
    """The seed's patch of blocks.`layer`.hook_resid_post at the differing positions, clean into
    corrupted, in TransformerLens (unfolded LayerNorm, BOS prepended) beside nnsight's."""
    # TransformerLens converts the very weights our run uses (hf_model=), not whatever
    # revision of "gpt2" the hub serves that day.
    hooked = tl.HookedTransformer.from_pretrained_no_processing(
        TL_MODEL, device="cpu", hf_model=model.hf, tokenizer=model.tok)
    ours = patched_logits(model, pair.corrupted, layer, pair.differing, runs.cache[layer])
    _, tl_cache = hooked.run_with_cache(hooked.to_tokens(clean))
    name = f"blocks.{layer}.hook_resid_post"

    def patch(act, hook):
        act[:, pair.differing] = tl_cache[name][:, pair.differing]
        return act

    theirs = hooked.run_with_hooks(hooked.to_tokens(corrupted), fwd_hooks=[(name, patch)])[0, -1]
    return TransformerLensCrosscheck(layer, float((ours - theirs.to(ours.device)).abs().max()))


def seed_crosscheck(profile: Profile, model: Loaded, pair: PairIds, runs: PairRuns,
                    layer: int) -> TransformerLensCrosscheck:
    """The seed's own library on the seed's pair, where it can run: the published weights, with
    transformer-lens installed."""
    if not profile.published_values_apply:
        ours = ("seeded random weights in the published GPT-2's files"
                if profile.rules.published_files else "the tiny organism")
        raise NothingToRun(
            f"the TransformerLens cross-check needs the published GPT-2 weights: TransformerLens "
            f"converts our model (hf_model=) into its own {TL_MODEL!r}, built at the published "
            f"GPT-2's shapes, and the {profile.name.value} profile's model is {ours}, of other "
            f"shapes")
    try:
        tl = importlib.import_module("transformer_lens")
    except ImportError:
        raise NothingToRun("transformer-lens is not installed (pip install -e '.[crosscheck]')") from None
    return transformerlens_crosscheck(tl, model, pair, runs, layer, CLEAN, CORRUPTED)
