"""What each of the patching claims judges, read from its experiments' results (claim bodies only
call these and judge)."""

from __future__ import annotations

from typing import Any, TypedDict

from harness.sources.patching import readback, tokens
from harness.sources.patching.experiments import (
    Behaviour,
    FullPatchIdentity,
    HookReference,
    LayerFlip,
    Sweep,
)


def single_token_words(tokenizer: Any) -> dict[str, Any]:
    """Code cell: the words checked, and those that are not one token."""
    r = tokens.single_token_words(tokenizer)
    return {"words": r.words, "multi_token": r.multi_token}


def aligned_pairs(tokenizer: Any) -> dict[str, Any]:
    """Code cell: the pairs checked, the positions each differs at, and the misaligned."""
    r = tokens.aligned_pairs(tokenizer)
    return {"pairs": r.pairs, "differing": r.differing, "misaligned": r.misaligned}


def full_patch_identity(full_patch: FullPatchIdentity) -> dict[str, Any]:
    """Code cell: whether every layer's whole-stream patch gives the clean logits."""
    return {
        "equal_at_every_layer": all(full_patch.equal_per_layer),
        "layers": len(full_patch.equal_per_layer),
        "max_abs_diff": full_patch.max_abs_diff,
    }


def hook_reference(seed_hook_reference: HookReference) -> dict[str, Any]:
    """Code cell: patches whose logits equal the hook reference's, of n."""
    return {"equal": sum(seed_hook_reference.equal), "n": len(seed_hook_reference.equal)}


class MinimalPairBehaviour(TypedDict):
    """Code cell: each prompt's top-1 token and logit difference."""

    clean_top1: str
    corrupted_top1: str
    clean_logit_diff: float
    corrupted_logit_diff: float


def minimal_pair_behaviour(behaviour: Behaviour) -> MinimalPairBehaviour:
    """§code cell: what patching.minimal-pair-behaviour judges."""
    return vars(behaviour)


class LayerFlipJudged(TypedDict):
    """Code cell: the seed's layer patch (LayerFlip's fields) and the sweep it sits in."""

    layer: int
    positions: list[int]
    corrupted_logit_diff: float
    patched_logit_diff: float
    clean_logit_diff: float
    normalised: float | None
    patched_top1: str
    moves_toward_clean: bool
    flips_to_clean_name: bool
    sweep_normalised: list[list[float | None]]
    sweep_tokens: list[str]


def layer_flip(seed_layer_flip: LayerFlip, sweep: Sweep) -> LayerFlipJudged:
    """§code cell: what patching.layer-flip judges."""
    return {
        **vars(seed_layer_flip),
        "sweep_normalised": sweep.normalised,
        "sweep_tokens": sweep.tokens,
    }


class IoiPair(TypedDict):
    """Issue: the corrected pair's behaviour (Behaviour's fields) and its sweep."""

    clean_top1: str
    corrupted_top1: str
    clean_logit_diff: float
    corrupted_logit_diff: float
    tokens: list[str]
    normalised: list[list[float | None]]


def ioi_pair(ioi_behaviour: Behaviour, ioi_sweep: Sweep) -> IoiPair:
    """§issue: corrected pair: what patching.ioi-pair judges."""
    return {**vars(ioi_behaviour), "tokens": ioi_sweep.tokens, "normalised": ioi_sweep.normalised}


class CleanPreferred(TypedDict):
    """Code cell: each pair's two logit differences, and the pairs where clean is not higher."""

    pairs: dict[str, dict[str, float]]
    reversed: list[str]


def clean_preferred(behaviours: dict[str, Behaviour]) -> CleanPreferred:
    """§code cell: what patching.clean-preferred judges."""
    return readback.reversed_pairs(behaviours)


def sweep_coverage(gaps: dict[str, list[str]]) -> dict[str, Any]:
    """Code cell: the pairs swept and the blocks or positions each sweep missed."""
    return {"pairs": sorted(gaps), "gaps": [f"{pair}: {g}" for pair, found in gaps.items()
                                            for g in found]}


class SweepRows(TypedDict):
    """Code cell: the cells re-run alone, their largest difference, and the mismatched."""

    cells: int
    max_abs_diff: float | None
    mismatched: list[str]


def sweep_rows(rows: dict[str, readback.SoloRows]) -> SweepRows:
    """§code cell: what patching.sweep-rows judges."""
    diffs = [d for r in rows.values() for d in r.diffs]
    return {"cells": sum(len(r.cells) for r in rows.values()),
            "max_abs_diff": max(diffs, default=None),
            "mismatched": [f"{pair}: {m}" for pair, r in rows.items() for m in r.mismatched]}
