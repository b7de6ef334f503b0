"""Seed 001's forward machinery (§1): final-token patches, one captured prefill, edit receipts,
and an independent plain-PyTorch reference forward."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import torch

from harness.models.handle import Loaded
from harness.private import hook_ids
from harness.consumed_inputs import ConsumedInputs
from harness.sources.heads.patches import Patch, same, tensor_sha

# Only the previous and the final positions' logits are read (§1's previous-token check and the
# answer): the head projects just those two, not every position over a 152k vocabulary.
LOGITS_KEPT = 2


@dataclass(frozen=True)
class Geometry:
    """Blocks, query heads, KV heads and head width of the model under study."""

    n_blocks: int
    n_heads: int
    n_kv_heads: int
    d_head: int

    @classmethod
    def of(cls, model: Loaded) -> "Geometry":
        c = model.hf.config
        d_head = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
        return cls(c.num_hidden_layers, c.num_attention_heads, c.num_key_value_heads, d_head)


Indices = Sequence[int] | None  # some of the blocks or heads; None: every one


def every(chosen: Indices, count: int) -> list[int]:
    """The chosen blocks or heads, or all `count` of them where none are chosen."""
    return list(range(count)) if chosen is None else list(chosen)


@dataclass
class BlockCapture:
    """§1: one block's tensors, before the edit and as actually consumed."""

    residual_before: torch.Tensor      # [1, seq, d_model], nnsight, before any residual edit
    residual_used: torch.Tensor        # as the block's pre-hook saw it
    values: torch.Tensor               # [1, seq, kv_heads, d_head]
    head_output_before: torch.Tensor   # [1, seq, heads, d_head], before any head edit
    head_output_used: torch.Tensor     # as o_proj's hook saw it
    attention: torch.Tensor            # [1, heads, destination, source] (eager)


@dataclass(frozen=True)
class Receipt:
    """§1: an edit's site, and whether the tensor consumed is the tensor requested."""

    layer: int
    kind: str
    head: int | None
    requested_sha256: str
    actual_sha256: str
    exact: bool


@dataclass
class ForwardRun:
    """One prefill: captured blocks, the last two positions' logits, receipts and side checks."""

    activations: dict[int, BlockCapture]
    logits: torch.Tensor               # [1, 2, vocab] float: the previous and the final token
    edits: list[Receipt]
    untouched: bool                    # every unpatched token and head consumed as computed
    hooks_removed: bool
    checks: dict[str, bool] = field(default_factory=dict)


def verify_block_patches(capture: BlockCapture, patches: Sequence[Patch],
                         position: int) -> tuple[list[Receipt], bool]:
    """§1: receipts for one block's edits, and whether everything unpatched is untouched."""
    expected_residual = capture.residual_before.clone()
    expected_heads = capture.head_output_before.clone()
    receipts = []
    for patch in patches:
        if patch.kind == "r":
            expected_residual[:, position] = patch.value.to(expected_residual)
            actual = capture.residual_used[:, position]
        else:
            expected_heads[:, position, patch.head] = patch.value.to(expected_heads)
            actual = capture.head_output_used[:, position, patch.head]
        receipts.append(Receipt(patch.layer, patch.kind, patch.head, tensor_sha(patch.value),
                                tensor_sha(actual), same(actual, patch.value)))
    untouched = (same(capture.residual_used, expected_residual)
                 and same(capture.head_output_used, expected_heads))
    return receipts, untouched


def run_forward(model: Loaded, token_ids: Sequence[int], patches: Sequence[Patch] = (),
                capture_blocks: Sequence[int] = ()) -> ForwardRun:
    """§1: one prefill (no KV cache) with final-token edits made through nnsight, while ordinary
    observers independently record what each captured block and o_proj consumed: a pre-hook on
    the block's input norm (which reads the block input) and a function mode on o_proj's matmul.

    Warm the nnsight wrapper up once before the first call, so hook clean-up can be checked.
    """
    g = Geometry.of(model)
    n = len(token_ids)
    position = n - 1
    tokens = torch.tensor([list(token_ids)], device=model.device)
    blocks = sorted(set(capture_blocks) | {p.layer for p in patches})
    assert len({p.site for p in patches}) == len(patches), "two patches share a site"
    layers = model.hf.model.layers
    used_residual: dict[int, torch.Tensor] = {}
    consumed: dict[int, torch.Tensor] = {}
    watcher = ConsumedInputs({b: layers[b].self_attn.o_proj for b in blocks}, consumed.__setitem__)
    attention: dict[int, torch.Tensor] = {}
    hooks_before = hook_ids(model.hf)
    handles = []
    for b in blocks:
        def read_residual(module, args, b=b):
            used_residual[b] = args[0].detach().clone()

        def read_attention(module, args, output, b=b):
            attention[b] = output[1].detach().clone()

        handles += [layers[b].input_layernorm.register_forward_pre_hook(read_residual),
                    layers[b].self_attn.register_forward_hook(read_attention)]
    saved: dict[int, dict[str, torch.Tensor]] = {}
    try:
        nn_layers = model.nn.model.layers
        with torch.inference_mode(), watcher, model.nn.trace(tokens, use_cache=False,
                                                             logits_to_keep=LOGITS_KEPT):
            for b in blocks:
                block = nn_layers[b]
                saved[b] = {"residual_before": block.input.clone().save()}
                residual = [p for p in patches if p.layer == b and p.kind == "r"]
                if residual:
                    changed = block.input.clone()
                    changed[:, position] = residual[0].value.to(changed)
                    block.input = changed
                saved[b]["values"] = block.self_attn.v_proj.output.reshape(
                    1, n, g.n_kv_heads, g.d_head).clone().save()
                raw = block.self_attn.o_proj.input
                heads = raw.reshape(1, n, g.n_heads, g.d_head)
                saved[b]["head_output_before"] = heads.clone().save()
                head_patches = [p for p in patches if p.layer == b and p.kind == "z"]
                if head_patches:
                    changed = heads.clone()
                    for p in head_patches:
                        changed[:, position, p.head] = p.value.to(changed)
                    block.self_attn.o_proj.input = changed.reshape_as(raw)
            logits = model.nn.output.logits[:, -LOGITS_KEPT:, :].float().save()
    finally:
        for handle in reversed(handles):
            handle.remove()
    hooks_removed = hook_ids(model.hf) == hooks_before
    activations, receipts, untouched = {}, [], True
    for b in blocks:
        used_heads = consumed[b].reshape(1, n, g.n_heads, g.d_head)
        capture = BlockCapture(residual_used=used_residual[b], head_output_used=used_heads,
                               attention=attention[b], **saved[b])
        activations[b] = capture
        got, ok = verify_block_patches(capture, [p for p in patches if p.layer == b], position)
        receipts += got
        untouched &= ok
    return ForwardRun(activations, logits, receipts, untouched, hooks_removed)


def reference_forward(model: Loaded, token_ids: Sequence[int],
                      patches: Sequence[Patch] = ()) -> torch.Tensor:
    """§1: the same edits as plain transformers pre-hooks on the block or o_proj; last two logits."""
    g = Geometry.of(model)
    n = len(token_ids)
    handles = []
    try:
        for patch in patches:
            block = model.hf.model.layers[patch.layer]
            module = block if patch.kind == "r" else block.self_attn.o_proj

            def replace(module, args, patch=patch):
                raw = args[0]
                if patch.kind == "r":
                    changed = raw.clone()
                    changed[:, -1] = patch.value.to(changed)
                else:
                    changed = raw.clone().reshape(1, n, g.n_heads, g.d_head)
                    changed[:, -1, patch.head] = patch.value.to(changed)
                return (changed.reshape_as(raw),) + args[1:]

            handles.append(module.register_forward_pre_hook(replace))
        with torch.inference_mode():
            out = model.hf(torch.tensor([list(token_ids)], device=model.device), use_cache=False,
                           logits_to_keep=LOGITS_KEPT)
        return out.logits[:, -LOGITS_KEPT:].float()
    finally:
        for handle in reversed(handles):
            handle.remove()
