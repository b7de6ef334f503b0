"""Seed 004's experiment sizes, per profile."""
from __future__ import annotations

from dataclasses import dataclass

from harness.profiles import ExperimentSizes, relative_layers

GPT2_DEPTH = 12
ORGANISM_DEPTH = 4
SEED_PATCH_LAYER = 9  # seed 004's blocks.9.hook_resid_post


@dataclass(frozen=True)
class PatchingSizes(ExperimentSizes):
    """Seed 004's sizes: the layer the seed patches, and the layers swept."""

    patch_layer: int
    n_layers: int

    def at_depth(self, depth: int) -> "PatchingSizes":
        """These sizes on a GPT-2 `depth` blocks deep: the patched block at the seed's relative
        depth, every block swept."""
        return PatchingSizes(patch_layer=relative_layers((self.patch_layer,), GPT2_DEPTH, depth,
                                                         blocks_after=1)[0], n_layers=depth)


PUBLISHED = PatchingSizes(patch_layer=SEED_PATCH_LAYER, n_layers=GPT2_DEPTH)

# Layer 9 of GPT-2's 12 has two blocks after it; the same relative depth is the organism's last
# block, whose patch cannot change anything downstream (0 by construction), so the mapping keeps
# at least one block after the patched one.
TINY = PatchingSizes(patch_layer=relative_layers((SEED_PATCH_LAYER,), GPT2_DEPTH, ORGANISM_DEPTH,
                                                 blocks_after=1)[0],
                     n_layers=ORGANISM_DEPTH)
