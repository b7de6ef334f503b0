"""Seed 001's machinery checks, made to hold for any model: reference-forward equality, edit
receipts, identity patches and the attention/value recomposition, at every block and head."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

from harness.criteria import NoneFailed
from harness.models.handle import Loaded
from harness.sources.heads.forward import (Geometry, Indices, every, reference_forward,
                                           run_forward)
from harness.sources.heads.patches import Patch, head_output_patch, residual_patch, same
from harness.sources.heads.grid import Grid
from harness.sources.heads.observations import HeadsLab, compose_head_message
from harness.sources.heads.task import Family, render


@dataclass
class ExactChecks:
    """Named exact checks; an anchor holds when every one does. `means` says in words what a
    failed one's name ({}) means."""

    results: dict[str, bool] = field(default_factory=dict)
    means: str = "{}"

    def add(self, name: str, ok: bool) -> None:
        self.results[name] = bool(ok)

    @property
    def failed(self) -> list[str]:
        return [k for k, ok in self.results.items() if not ok]

    @property
    def n(self) -> int:
        return len(self.results)

    def readout(self) -> dict[str, Any]:
        """All exact, and the failed count and first failures, each said in words (`means`)."""
        return {"all_exact": not self.failed,
                **NoneFailed.counts([self.means.format(k) for k in self.failed], self.n)}


def _ids(model: Loaded, family: Family, key: str) -> list[int]:
    return render(getattr(family, key), model.tok).input_ids


def probe_edits(model: Loaded, family: Family,
                blocks: Indices = None) -> list[tuple[str, list[Patch]]]:
    """§1: the edit kinds the notebook makes, at every block (or `blocks`): a donor residual, a
    zeroed head, a foreign head output, and a residual plus two heads together."""
    g = Geometry.of(model)
    blocks = every(blocks, g.n_blocks)
    donor = run_forward(model, _ids(model, family, "D"), (), blocks)
    edits: list[tuple[str, list[Patch]]] = [("none", [])]
    for b in blocks:
        r = donor.activations[b].residual_before[:, -1]
        z = donor.activations[b].head_output_before[:, -1]
        edits += [(f"r{b}", [residual_patch(b, r)]),
                  (f"z{b}.0", [head_output_patch(b, 0, torch.zeros_like(z[:, 0]))]),
                  (f"z{b}.last", [head_output_patch(b, g.n_heads - 1, z[:, 0])]),
                  (f"r{b}+z{b}", [residual_patch(b, r), head_output_patch(b, 1, z[:, 1]),
                                  head_output_patch(b, g.n_heads - 2, torch.zeros_like(z[:, 0]))])]
    return edits


def reference_equality(model: Loaded, family: Family, blocks: Indices = None) -> ExactChecks:
    """§1: each probe edit's nnsight logits are torch.equal to the plain pre-hook forward's."""
    checks, ids = ExactChecks(means=(
        "under probe edit {}, the nnsight run's logits differ from the plain pre-hook reference "
        "forward's")), _ids(model, family, "R")
    for name, patches in probe_edits(model, family, blocks):
        run = run_forward(model, ids, patches)
        checks.add(name, same(reference_forward(model, ids, patches), run.logits))
    return checks


def edit_receipts(model: Loaded, family: Family, blocks: Indices = None) -> ExactChecks:
    """§1: every probe edit is consumed as requested, nothing else changes, hooks are removed,
    and the previous token's logits stay those of the unedited run."""
    checks, ids = ExactChecks(means=(
        "probe edit check {} failed: an edit not consumed as requested, another cell moved, a "
        "hook left or the previous token's logits moved")), _ids(model, family, "R")
    base = run_forward(model, ids)
    for name, patches in probe_edits(model, family, blocks)[1:]:
        run = run_forward(model, ids, patches)
        checks.add(f"{name}:consumed", len(run.edits) == len(patches)
                   and all(r.exact and r.requested_sha256 == r.actual_sha256 for r in run.edits))
        checks.add(f"{name}:untouched", run.untouched)
        checks.add(f"{name}:hooks", run.hooks_removed)
        checks.add(f"{name}:previous", same(run.logits[:, 0], base.logits[:, 0]))
    return checks


def residual_identity(model: Loaded, family: Family, blocks: Indices = None) -> ExactChecks:
    """§2: R's own final residual patched into each block (or `blocks`) leaves R's logits
    identical."""
    g = Geometry.of(model)
    blocks = every(blocks, g.n_blocks)
    checks, ids = ExactChecks(), _ids(model, family, "R")
    native = run_forward(model, ids, (), blocks)
    checks.add("reference", same(reference_forward(model, ids), native.logits))
    for b in blocks:
        own = native.activations[b].residual_before[:, -1]
        checks.add(f"block{b}", same(run_forward(model, ids, [residual_patch(b, own)]).logits,
                                     native.logits))
    return checks


def head_identity(model: Loaded, family: Family, blocks: Indices = None,
                  heads: Indices = None) -> ExactChecks:
    """§2: each head's own output patched back, in O and in H (D's residual transplanted into R
    at the same block), leaves that run's logits identical; every block and head (or `blocks`
    and `heads`)."""
    g = Geometry.of(model)
    blocks = every(blocks, g.n_blocks)
    checks = ExactChecks()
    r_ids, o_ids = _ids(model, family, "R"), _ids(model, family, "O")
    donor = run_forward(model, _ids(model, family, "D"), (), blocks)
    ordinary = run_forward(model, o_ids, (), blocks)
    for b in blocks:
        background = [residual_patch(b, donor.activations[b].residual_before[:, -1])]
        hybrid = run_forward(model, r_ids, background, (b,))
        for context, ids, run, patches in (("H", r_ids, hybrid, background),
                                           ("O", o_ids, ordinary, [])):
            for h in every(heads, g.n_heads):
                own = run.activations[b].head_output_before[:, -1, h]
                again = run_forward(model, ids, patches + [head_output_patch(b, h, own)])
                checks.add(f"{context}:{b}.{h}", same(again.logits, run.logits))
    return checks


def av_identity(model: Loaded, family: Family, blocks: Indices = None,
                heads: Indices = None) -> ExactChecks:
    """§4: O-attention with O-values recomposes every head's Z slice exactly, and patching that
    recomposed slice back reproduces O's logits; every block and head (or `blocks` and `heads`)."""
    g = Geometry.of(model)
    blocks = every(blocks, g.n_blocks)
    checks, ids = ExactChecks(), _ids(model, family, "O")
    native = run_forward(model, ids, (), blocks)
    for b in blocks:
        cache = native.activations[b]
        for h in every(heads, g.n_heads):
            message = compose_head_message(cache.attention, cache.values, cache.values, h)
            checks.add(f"Z:{b}.{h}", same(message, cache.head_output_before[:, -1, h]))
            run = run_forward(model, ids, [head_output_patch(b, h, message)])
            checks.add(f"logits:{b}.{h}", same(run.logits, native.logits))
    return checks


@dataclass
class RecordCounts:
    """§7: observations per study once the grid (§6, the last study) has run, the counts the
    architecture implies (13 + 3 × heads per main family, 4 + blocks + 2 × heads per opening
    family, of the blocks swept and heads screened), and the lab's own checks."""

    main: int
    opening: int
    expected_main: int
    expected_opening: int
    grid_recorded: bool
    checks: dict[str, bool]

    @property
    def failed_checks(self) -> list[str]:
        return [k for k, ok in self.checks.items() if not ok]

    @property
    def failed(self) -> list[str]:
        counts = {"main records": (self.main, self.expected_main),
                  "opening records": (self.opening, self.expected_opening)}
        return ([f"{name}: {n}, expected {expected}" for name, (n, expected) in counts.items()
                 if n != expected] + ([] if self.grid_recorded else ["a grid cell is unrecorded"])
                + self.failed_checks)

    def readout(self) -> dict[str, Any]:
        kinds = sorted({k.split(":")[0] for k in self.checks})
        return {"main_records": self.main, "opening_records": self.opening,
                "checks_failed": len(self.failed_checks),
                **NoneFailed.counts(self.failed, len(self.checks)),
                "checks": {kind: sum(k.startswith(kind + ":") for k in self.checks)
                           for kind in kinds}}


def record_counts(lab: HeadsLab, grid: Grid) -> RecordCounts:
    """§7: count the lab's observations per study after `grid`, whose cells must all be there."""
    heads = len(lab.screened_heads)
    studies = [k[0] for k in lab.observations]
    return RecordCounts(studies.count("main"), studies.count("opening"),
                        (13 + 3 * heads) * len(lab.main),
                        (4 + len(lab.swept_blocks) + 2 * heads) * len(lab.opening),
                        all(lab.has_case(f, c) for f in lab.main for c in grid.conditions.values()),
                        lab.checks)
