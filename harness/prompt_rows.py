"""Where an experiment's run read each prompt (seed 000 §6's fire-once rule; issue 46 §2): the
forwards and batch rows an anchor's sites fall in, and the unedited values a write copies, found
by the ids each replayed forward read (its left padding dropped), never by a forward's or a row's
place in the run. A run that never read a prompt, or reads its rows in another order than it
writes them, fails its anchor with a RunMismatch (harness.fire_once) rather than being checked
at the wrong cells."""
from __future__ import annotations

from typing import Callable, Sequence

import torch

from harness.replay import Reference, SourceNotRead

# Prompts as token ids (harness.declared_sites.Prompts also names what an anchor calls them).
PromptIds = Sequence[Sequence[int]]


def row_ids(ref: Reference, row: int) -> list[int]:
    """The ids batch row `row` of a forward read, less the positions its attention mask pads."""
    x, mask = ref.forward.kwargs["input_ids"], ref.forward.kwargs.get("attention_mask")
    return (x[row] if mask is None else x[row][mask[row].bool()]).tolist()


def _read(ref: Reference) -> list[list[int]] | None:
    """Every row's ids of a forward that read a batch of prompts; None for one that read none."""
    x = ref.forward.kwargs.get("input_ids")
    if x is None or x.dim() != 2:
        return None
    return [row_ids(ref, r) for r in range(x.shape[0])]


def rows_in(ref: Reference, prompts: PromptIds) -> tuple[int, ...] | None:
    """The rows of one forward that read each of `prompts`, in their order (a row serves one
    prompt); None where the forward read one of them in no row."""
    read = _read(ref)
    if read is None:
        return None
    taken: list[int] = []
    for one in prompts:
        row = next((r for r, ids in enumerate(read) if ids == list(one) and r not in taken), None)
        if row is None:
            return None
        taken.append(row)
    return tuple(taken)


def rows_of(refs: Sequence[Reference], forward: int, prompts: PromptIds,
            what: str) -> tuple[int, ...]:
    """The rows of the run's forward `forward` that read each of `prompts` (the anchor's `what`
    prompts), in their order: where that forward holds the rows it reads from or writes to."""
    if forward >= len(refs):
        raise SourceNotRead(f"the run made {len(refs)} forwards: forward {forward}, which should "
                            f"read the anchor's {what} prompts, was never made")
    found = rows_in(refs[forward], prompts)
    if found is None:
        raise SourceNotRead(f"forward {forward} of the run did not read every {what} prompt of "
                            f"the anchor's rows")
    return found


def forwards_reading(refs: Sequence[Reference], prompts: PromptIds) -> list[int]:
    """The run's forwards that read every one of `prompts`, in the run's order."""
    return [f for f, ref in enumerate(refs) if rows_in(ref, prompts) is not None]


def read_values(refs: Sequence[Reference], prompts: PromptIds,
                what: str) -> Callable[[int, Sequence[int]], torch.Tensor]:
    """Each prompt's unedited block outputs, from the first forward of the run that read it (in
    whichever row): `value(layer, positions)` is [prompts, positions, d] in the prompts' order."""
    where: list[tuple[Reference, int]] = []
    for n, one in enumerate(prompts):
        found = next(((ref, rows[0]) for ref in refs
                      if (rows := rows_in(ref, [one])) is not None), None)
        if found is None:
            raise SourceNotRead(f"no forward of the run read {what} prompt {n} of the anchor's "
                                f"rows ({len(one)} tokens): the value it should copy was never "
                                f"computed")
        where.append(found)

    def value(layer: int, positions: Sequence[int]) -> torch.Tensor:
        return torch.cat([ref.value(layer, [row], positions) for ref, row in where])

    return value


def decode_loops(refs: Sequence[Reference], prompts: PromptIds) -> list[tuple[int, dict[int, int]]]:
    """Each decode loop's first forward (the one handed an empty key-value cache) and, per batch
    row, which of `prompts` it decodes."""
    known, loops = [list(p) for p in prompts], []
    for f, ref in enumerate(refs):
        if ref.forward.cache is None:
            continue
        rows = {}
        for r, ids in enumerate(_read(ref) or []):
            if ids not in known:
                raise SourceNotRead(f"row {r} of the decode loop starting at forward {f} read "
                                    f"none of the anchor's prompts")
            rows[r] = known.index(ids)
        loops.append((f, rows))
    return loops
