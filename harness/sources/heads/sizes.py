"""Seed 001's experiment sizes, per profile."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HeadsSizes:
    """Seed 001's smoke-test block: where later studies run when §2's rule selects no block
    (or the last one), as the notebook's RUN_ALL_FAMILIES=False path runs at block 31.
    None on published, where only the rule's choice counts."""

    smoke_block: int | None


PUBLISHED = HeadsSizes(smoke_block=None)
# The organism's 4 blocks: block 2 is the latest whose next block exists.
TINY = HeadsSizes(smoke_block=2)
