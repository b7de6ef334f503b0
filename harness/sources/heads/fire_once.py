"""Seed 001's edits declared (harness.interventions), under the suite's fire-once rule (seed 000
§6; issue 46 §2): made by the experiment's own forward (§1's run_forward, with its residual_patch
and head_output_patch), each writes exactly its declared site, what enters a block or one head's
slice of o_proj's input at the final position, in its own forward, and nothing else
(harness.fire_once, reading what each block and o_proj consumed)."""
from __future__ import annotations

import torch

from harness.declared_sites import At, HeadWrite, InputWrite, Prompts, within_blocks
from harness.interventions import Intervention
from harness.models.handle import Loaded
from harness.sources.heads.forward import Geometry, Indices, every, run_forward
from harness.sources.heads.patches import Patch, head_output_patch, residual_patch
from harness.sources.heads.task import Family, render

Edit = tuple[int, int | None, torch.Tensor]  # block, head (None: what enters the block), value


def declared_edits(model: Loaded, family: Family, blocks: Indices = None,
                   heads: Indices = None) -> list[list[Edit]]:
    """Each forward's edits, at every block and head (or `blocks` and `heads`), three forwards
    a block whatever the heads: §4's foreign message (D's own output of each chosen head, into
    it); §2–§3's deletion in context H (D's final residual into the block's input, every chosen
    head zeroed); and §6's joint edit (D's output of the first chosen head, with the next
    block's last chosen head zeroed) where there is a next block."""
    g = Geometry.of(model)
    chosen, written = every(blocks, g.n_blocks), every(heads, g.n_heads)
    donor = run_forward(model, render(family.D, model.tok).input_ids, (),
                        sorted(set(chosen) | {b + 1 for b in chosen if b + 1 < g.n_blocks}))
    edits: list[list[Edit]] = []
    for b in chosen:
        z = donor.activations[b].head_output_before[:, -1]  # [1, heads, d_head]
        zero = torch.zeros_like(z[:, 0])
        residual = donor.activations[b].residual_before[:, -1]  # [1, d_model]
        edits += [[(b, h, z[:, h]) for h in written],
                  [(b, None, residual)] + [(b, h, zero) for h in written]]
        if b + 1 < g.n_blocks:
            edits.append([(b, written[0], z[:, written[0]]), (b + 1, written[-1], zero)])
    return edits


def patch(edit: Edit) -> Patch:
    """The experiment's own patch for one declared edit."""
    b, h, value = edit
    return residual_patch(b, value) if h is None else head_output_patch(b, h, value)


def edits(model: Loaded, family: Family, blocks: Indices = None,
          heads: Indices = None) -> Intervention:
    """The declared edits, one forward each on `family`'s R prompt through run_forward, and
    their sites: each value where it was declared, every other head and cell unmoved."""
    ids = render(family.R, model.tok).input_ids
    edited, width = declared_edits(model, family, blocks, heads), Geometry.of(model).d_head
    prompt = Prompts.of("R", [ids])
    writes = [InputWrite(prompt, b, (-1,), value, At(i)) if h is None
              else HeadWrite(prompt, b, h, width, (-1,), value, At(i))
              for i, edit in enumerate(edited) for b, h, value in edit]
    return Intervention(model.local(), lambda: [
        run_forward(model, ids, [patch(e) for e in edit]) for edit in edited],
        within_blocks(writes), within=True)
