"""Seed 004: residual-stream patching on GPT-2 blocks with nnsight, and a plain-hook reference."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import nnsight
import torch

from harness.models.handle import Loaded


@dataclass(frozen=True)
class PairIds:
    """A clean and a corrupted prompt as ids (BOS first, as TransformerLens prepends it)."""

    clean: list[int]
    corrupted: list[int]
    clean_name: int
    corrupted_name: int

    @property
    def differing(self) -> list[int]:
        """The positions whose tokens differ: where the seed's minimal pair is 'minimal'."""
        return [i for i, (a, b) in enumerate(zip(self.clean, self.corrupted)) if a != b]


def bos_ids(tok, text: str) -> list[int]:
    """A prompt's ids with BOS first, as TransformerLens' to_tokens gives them."""
    return [tok.bos_token_id] + tok(text, add_special_tokens=False).input_ids


def pair_ids(model: Loaded, clean: str, corrupted: str, clean_name: str,
             corrupted_name: str) -> PairIds:
    """Tokenise a minimal pair; both prompts must have the same length and single-token names."""
    tok = model.tok
    a, b = bos_ids(tok, clean), bos_ids(tok, corrupted)
    if len(a) != len(b):
        raise ValueError(f"prompts differ in length: {len(a)} vs {len(b)} tokens")
    names = [tok(n, add_special_tokens=False).input_ids for n in (clean_name, corrupted_name)]
    if any(len(n) != 1 for n in names):
        raise ValueError(f"names are not single tokens: {names}")
    return PairIds(a, b, names[0][0], names[1][0])


def ids_tensor(model: Loaded, ids: Sequence[int]) -> torch.Tensor:
    """A batch of one prompt's ids on the device of the model's input embedding."""
    return torch.tensor([list(ids)], device=model.device)


def blocks(model: Loaded):
    return model.nn.transformer.h


def n_layers(model: Loaded) -> int:
    return model.hf.config.n_layer


def clean_cache(model: Loaded, ids: Sequence[int]) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Every block's output (hook_resid_post) and the final-position logits, in one nnsight trace."""
    h, lm_head = blocks(model), model.nn.lm_head  # a body names only envoys: NDIF's sandbox
    with torch.no_grad(), model.nn.trace(ids_tensor(model, ids)):
        cache = nnsight.save([])
        for block in h:
            cache.append(block.output.clone())
        logits = lm_head.output[0, -1].save()
    return list(cache), logits


def patched_logits(model: Loaded, ids: Sequence[int], layer: int, positions: Sequence[int] | None,
                   source: torch.Tensor) -> torch.Tensor:
    """nnsight: overwrite block `layer`'s output at `positions` (None = all) with `source`."""
    h, lm_head = blocks(model), model.nn.lm_head
    positions = None if positions is None else list(positions)
    with torch.no_grad(), model.nn.trace(ids_tensor(model, ids)):
        if positions is None:
            h[layer].output[:] = source
        else:
            out = h[layer].output  # `source` may be a copy returned from NDIF (on the CPU)
            out[:, positions, :] = source[:, positions, :].to(out.device)
        logits = lm_head.output[0, -1].save()
    return logits


def position_sweep_logits(model: Loaded, ids: Sequence[int], layer: int,
                          source: torch.Tensor) -> torch.Tensor:
    """Fast mode's sweep of one layer: row p of one batched forward has position p of block
    `layer`'s output overwritten with `source`'s; the final-position logits of each row."""
    n = len(ids)
    rows = torch.arange(n, device=model.device)
    block, lm_head = blocks(model)[layer], model.nn.lm_head
    with torch.no_grad(), model.nn.trace(torch.tensor([list(ids)] * n, device=model.device)):
        out = block.output
        out[rows, rows, :] = source[0].to(out)
        logits = lm_head.output[:, -1].save()
    return logits


def reference_logits(model: Loaded, ids: Sequence[int], layer: int, positions: Sequence[int] | None,
                     source: torch.Tensor) -> torch.Tensor:
    """Plain PyTorch: the same patch through a forward hook on the transformers block."""
    def hook(module, inputs, output):
        out = output.clone()
        if positions is None:
            out[:] = source
        else:
            out[:, list(positions), :] = source[:, list(positions), :]
        return out

    handle = model.hf.transformer.h[layer].register_forward_hook(hook)
    try:
        with torch.no_grad():
            return model.hf(ids_tensor(model, ids)).logits[0, -1]
    finally:
        handle.remove()


@dataclass
class PairRuns:
    """The unpatched runs of a pair, computed once: the clean cache and both final logits."""

    cache: list[torch.Tensor]
    clean: torch.Tensor
    corrupted: torch.Tensor


def pair_runs(model: Loaded, pair: PairIds) -> PairRuns:
    """Run both prompts once; every patch below reads from these."""
    cache, clean = clean_cache(model, pair.clean)
    _, corrupted = clean_cache(model, pair.corrupted)
    return PairRuns(cache, clean, corrupted)


def logit_diff(logits: torch.Tensor, pair: PairIds) -> float:
    """logit(clean run's name) − logit(corrupted run's name)."""
    return float(logits[pair.clean_name] - logits[pair.corrupted_name])


@dataclass
class Behaviour:
    """What the model predicts after each prompt of the pair."""

    clean_top1: str
    corrupted_top1: str
    clean_logit_diff: float
    corrupted_logit_diff: float


def behaviour(model: Loaded, pair: PairIds, runs: PairRuns) -> Behaviour:
    """The top-1 token and the clean-minus-corrupted name logit difference for both prompts."""
    top = lambda logits: model.tok.decode([int(logits.argmax())])  # noqa: E731
    return Behaviour(top(runs.clean), top(runs.corrupted), round(logit_diff(runs.clean, pair), 4),
                     round(logit_diff(runs.corrupted, pair), 4))


@dataclass
class FullPatchIdentity:
    """Whole-stream patch at each layer versus the clean logits."""

    equal_per_layer: list[bool]
    max_abs_diff: list[float]


def full_patch_identity(model: Loaded, pair: PairIds, runs: PairRuns) -> FullPatchIdentity:
    """Patch every position of the clean run's block output into the corrupted run, per layer."""
    got = [patched_logits(model, pair.corrupted, layer, None, runs.cache[layer])
           for layer in range(n_layers(model))]
    return FullPatchIdentity([torch.equal(g, runs.clean) for g in got],
                             [float((g - runs.clean).abs().max()) for g in got])


@dataclass
class HookReference:
    """nnsight's patched logits against the plain-hook reference, for several patches."""

    patches: list[list]
    equal: list[bool]


def hook_reference(model: Loaded, pair: PairIds, runs: PairRuns) -> HookReference:
    """Every (layer, differing positions) patch and every whole-stream patch, both ways."""
    cache = runs.cache
    patches: list[tuple[int, list[int] | None]] = []
    for layer in range(n_layers(model)):
        patches += [(layer, pair.differing), (layer, None)]
    equal = [torch.equal(patched_logits(model, pair.corrupted, layer, pos, cache[layer]),
                         reference_logits(model, pair.corrupted, layer, pos, cache[layer]))
             for layer, pos in patches]
    return HookReference([[layer, pos] for layer, pos in patches], equal)


@dataclass
class Sweep:
    """Normalised logit difference for a patch at every (layer, position): 0 corrupted, 1 clean."""

    tokens: list[str]
    clean_logit_diff: float
    corrupted_logit_diff: float
    raw: list[list[float]]         # [layer][position] logit difference after the patch
    normalised: list[list[float | None]]  # (raw − corrupted) / (clean − corrupted); None if equal
    layers: list[int]              # the blocks patched, in the order of raw's rows
    positions: list[int]           # the positions patched, in the order of each row


def sweep(model: Loaded, pair: PairIds, runs: PairRuns, batched: bool = False) -> Sweep:
    """Patch one (layer, position) of the clean run into the corrupted run, for all of them: one
    forward each (the seed's loop), or one batched forward per layer (fast mode)."""
    ld_clean, ld_corrupt = logit_diff(runs.clean, pair), logit_diff(runs.corrupted, pair)
    span = ld_clean - ld_corrupt
    layers, positions = list(range(n_layers(model))), list(range(len(pair.corrupted)))
    if batched:
        raw = [[logit_diff(row, pair) for row in
                position_sweep_logits(model, pair.corrupted, layer, runs.cache[layer])]
               for layer in layers]
    else:
        raw = [[logit_diff(patched_logits(model, pair.corrupted, layer, [pos], runs.cache[layer]),
                           pair) for pos in positions]
               for layer in layers]
    norm = [[round((r - ld_corrupt) / span, 4) if span else None for r in row] for row in raw]
    return Sweep(model.tok.convert_ids_to_tokens(pair.corrupted), round(ld_clean, 4),
                 round(ld_corrupt, 4), [[round(r, 4) for r in row] for row in raw], norm,
                 layers, positions)


@dataclass
class LayerFlip:
    """The seed's experiment: patch layer L at the differing position(s), read the output."""

    layer: int
    positions: list[int]
    corrupted_logit_diff: float
    patched_logit_diff: float
    clean_logit_diff: float
    normalised: float | None
    patched_top1: str
    moves_toward_clean: bool
    flips_to_clean_name: bool


def layer_flip(model: Loaded, pair: PairIds, runs: PairRuns, layer: int) -> LayerFlip:
    """Patch block `layer`'s output at the differing positions from clean into corrupted."""
    patched = patched_logits(model, pair.corrupted, layer, pair.differing, runs.cache[layer])
    ld = [logit_diff(x, pair) for x in (runs.corrupted, patched, runs.clean)]
    span = ld[2] - ld[0]
    top = int(patched.argmax())
    return LayerFlip(layer, pair.differing, round(ld[0], 4), round(ld[1], 4), round(ld[2], 4),
                     round((ld[1] - ld[0]) / span, 4) if span else None,
                     model.tok.decode([top]), ld[1] > ld[0], top == pair.clean_name)
