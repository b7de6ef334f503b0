"""Seed 004's interventions declared (harness.interventions): the whole-stream and the position
patches, run through the experiment's own functions, write the clean run's block output exactly
where they were asked to (their fire-once anchors); the whole-stream patch run with the corrupted
prompt as its own clean one writes the run's own stream (its identity); and the sweep's rows
hold alone."""
from __future__ import annotations

from dataclasses import replace

from harness.declared_sites import At, Copy, Prompts, copied
from harness.interventions import Intervention
from harness.models.handle import Loaded
from harness.sources.patching.experiments import (PairIds, full_patch_identity, layer_flip,
                                                  n_layers, pair_runs, sweep)

PATCHED = 2  # forwards 0 and 1 run the two prompts unpatched, the patches from 2 on


def prompts(pair: PairIds) -> tuple[Prompts, Prompts]:
    """The prompt a patch writes into (the corrupted one) and the one it copies from."""
    return Prompts.of("corrupted", [pair.corrupted]), Prompts.of("clean", [pair.clean])


def own(pair: PairIds) -> PairIds:
    """The pair with the corrupted prompt as its clean one too: every patch of it copies each
    position's own value."""
    return replace(pair, clean=pair.corrupted, clean_name=pair.corrupted_name)


def _whole_stream(model: Loaded, pair: PairIds) -> Intervention:
    every = tuple(range(len(pair.clean)))
    return Intervention(model.local(),
                        lambda: full_patch_identity(model, pair, pair_runs(model, pair)),
                        copied([Copy(*prompts(pair), layer, every, every, At(PATCHED + layer))
                                for layer in range(n_layers(model))]))


def whole_stream(model: Loaded, pair: PairIds) -> Intervention:
    """Forward 2 + L, on the corrupted prompt, holds the clean run's every position at block L,
    and nothing upstream moved; its own-values run writes the corrupted run's own stream."""
    return replace(_whole_stream(model, pair), own=_whole_stream(model, own(pair)))


def position_sweep(model: Loaded, pair: PairIds, batched: bool) -> Intervention:
    """The (layer, position) sweep: one position of one block per forward (faithful), or row p
    of block L's batched forward, whose every row reads the corrupted prompt, at position p
    (fast mode), holds the clean run's value. It has no own-values run: fast mode writes values
    read alone into a batch of one row per position, no identity to the bit (a batch of another
    size sums in another order); its rows are checked alone instead."""
    length = len(pair.clean)
    corrupted, clean = prompts(pair)
    if batched:  # one row per position, every one reading the corrupted prompt
        batch = Prompts.of(corrupted.what, corrupted.ids * length)
        copies = [Copy(batch, clean, layer, (p,), (p,), At(PATCHED + layer), row=p)
                  for layer in range(n_layers(model)) for p in range(length)]
    else:
        copies = [Copy(corrupted, clean, layer, (p,), (p,), At(PATCHED + layer * length + p))
                  for layer in range(n_layers(model)) for p in range(length)]
    return Intervention(model.local(), lambda: sweep(model, pair, pair_runs(model, pair), batched),
                        copied(copies))


def layer_flip_patch(model: Loaded, pair: PairIds, layer: int) -> Intervention:
    """The seed's own patch: block `layer` at the positions where the two prompts' tokens differ
    (found here from the ids, not through PairIds.differing) holds the clean values. It has no
    own-values run: a prompt differs from itself nowhere."""
    differing = tuple(i for i, (a, b) in enumerate(zip(pair.clean, pair.corrupted)) if a != b)
    return Intervention(model.local(),
                        lambda: layer_flip(model, pair, pair_runs(model, pair), layer),
                        copied([Copy(*prompts(pair), layer, differing, differing, At(PATCHED))]))
