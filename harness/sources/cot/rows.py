"""Seed 000 §1's decoded rows as every later section's batched steps keep them: the ids a row
continued, the ids it decoded, and what a §6/§7 edit wrote into it (read back by
harness/sources/cot/step_rows.py)."""
from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Write:
    """§6/§7: a decode-loop edit of one row: at `layer`'s last position, at steps `first`,
    `first + 1`, …, that step's row of `vectors`, set (§7's patch) or added (§6's noise)."""

    layer: int
    first: int
    vectors: torch.Tensor  # [steps, hidden]
    added: bool = False


@dataclass(frozen=True)
class Row:
    """§1: one row of a generate call: the ids it continued, the ids it decoded, and its edit."""

    prefix: list[int]
    out: list[int]
    write: Write | None = None
