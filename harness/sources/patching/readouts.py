"""The dicts patching's claims judge, read from its experiments' results: each claim's
declaration names its readout (harness.claim_tests)."""

from __future__ import annotations

from typing import Any

from harness.sources.patching import readback
from harness.sources.patching.experiments import (
    Behaviour,
    FullPatchIdentity,
    HookReference,
    LayerFlip,
    Sweep,
)


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


def layer_flip(seed_layer_flip: LayerFlip, sweep: Sweep) -> dict[str, Any]:
    """Code cell: the seed's layer patch (each LayerFlip field) and the sweep it sits in."""
    return {
        **vars(seed_layer_flip),
        "sweep_normalised": sweep.normalised,
        "sweep_tokens": sweep.tokens,
    }


def ioi_pair(ioi_behaviour: Behaviour, ioi_sweep: Sweep) -> dict[str, Any]:
    """Issue: the corrected pair's behaviour (each Behaviour field) and its sweep."""
    return {**vars(ioi_behaviour), "tokens": ioi_sweep.tokens, "normalised": ioi_sweep.normalised}


def sweep_coverage(gaps: dict[str, list[str]]) -> dict[str, Any]:
    """Code cell: the pairs swept and the blocks or positions each sweep missed."""
    return {"pairs": sorted(gaps), "gaps": [f"{pair}: {g}" for pair, found in gaps.items()
                                            for g in found]}


def sweep_rows(rows: dict[str, readback.SoloRows]) -> dict[str, Any]:
    """Code cell: the cells re-run alone, their largest difference, and the mismatched."""
    diffs = [d for r in rows.values() for d in r.diffs]
    return {"cells": sum(len(r.cells) for r in rows.values()),
            "max_abs_diff": max(diffs, default=None),
            "mismatched": [f"{pair}: {m}" for pair, r in rows.items() for m in r.mismatched]}
