"""Seed 001's experiment sizes, per profile."""
from __future__ import annotations

from dataclasses import dataclass, replace

from harness.profiles import ExperimentSizes
from harness.sources.heads.task import MAIN_FAMILIES, OPENING_FAMILIES


@dataclass(frozen=True)
class HeadsSizes(ExperimentSizes):
    """Seed 001's sizes.

    `smoke_block`: where later studies run when §2's rule selects no block (or the last one), as
    the notebook's RUN_ALL_FAMILIES=False path runs at block 31; None where only the rule's
    choice counts (published, and the competent organism). `opening_families` / `main_families`: how many of the notebook's
    seeded families (the first ones, in index order) the studies run on; the set-up anchors
    always see the whole sets. `anchor_blocks` / `anchor_heads`: the blocks and heads the
    machinery anchors check (None: every one). `sweep_blocks`: the blocks §2's residual sweep
    transplants before (None: every one; its native runs always capture every block);
    `screen_heads`: the heads every §2–§5 screen deletes (None: every one)."""

    smoke_block: int | None
    opening_families: int = OPENING_FAMILIES
    main_families: int = MAIN_FAMILIES
    anchor_blocks: tuple[int, ...] | None = None
    anchor_heads: tuple[int, ...] | None = None
    sweep_blocks: tuple[int, ...] | None = None
    screen_heads: tuple[int, ...] | None = None

    def at_depth(self, depth: int) -> "HeadsSizes":
        """These sizes on a model `depth` blocks deep: the same (§2 sweeps every block and its
        rule picks the block; the published and tiny profiles have no smoke-test block)."""
        return self

    def on_random_weights(self) -> "HeadsSizes":
        """These sizes on random weights (the full-size rehearsal at the published sizes): §2's
        rule selects no block there, so the notebook's smoke-test block serves where none is set,
        and §2–§7 still run."""
        return self if self.smoke_block is not None else replace(self, smoke_block=SMOKE_BLOCK)


# The notebook's RUN_ALL_FAMILIES=False smoke test runs its later studies at block 31.
SMOKE_BLOCK = 31

PUBLISHED = HeadsSizes(smoke_block=None)
# The organism answers, so §2's rule picks its block as on published: no smoke-test block.
TINY = HeadsSizes(smoke_block=None)
# The meta tests' paired runs: the first 2 opening and 4 main families.
MICRO = HeadsSizes(smoke_block=None, opening_families=2, main_families=4)
# Qwen2.5-3B's files with random weights, on the CPU: the notebook's RUN_ALL_FAMILIES=False
# smoke test (one opening and one main family, block 31 when the rule selects none); §2's sweep
# before the first, a middle and the last block (a random model's rule selects none of them, so
# every later study runs at the smoke-test block); every screen, and the machinery anchors at block
# 31 (the published retrieval block), on the first, the published (31.7, 32.7) and the last head.
REHEARSAL = HeadsSizes(smoke_block=SMOKE_BLOCK, opening_families=1, main_families=1,
                       anchor_blocks=(31,), anchor_heads=(0, 7, 15), sweep_blocks=(0, 18, 35),
                       screen_heads=(0, 7, 15))
