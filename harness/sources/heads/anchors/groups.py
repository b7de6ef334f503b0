"""Seed 001 §4's key/value groups (issue 36): the attention/value crossing with a value bank that
is not the run's own, against a plain transformers forward that places the donor by
transformers' own repeat_kv mapping.

heads.av-identity recomposes each head from the run's own values, so the group a query head's
edit lands in never shows: a wrong group gives the same message. Here O's attention meets a
foreign bank (D's values plus seeded noise) at query heads whose group the plausible wrong
mappings (tiling, h % n_kv_heads; one fixed group) would place elsewhere."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from harness.models.handle import Loaded
from harness.sources.heads.anchors.machinery import ExactChecks
from harness.sources.heads.forward import (LOGITS_KEPT, Geometry, Indices, every,
                                           reference_forward, run_forward)
from harness.sources.heads.observations import compose_head_message
from harness.sources.heads.patches import head_output_patch, same
from harness.sources.heads.task import Family, render

DONOR_SEED = 36001  # issue 36


def kv_head_of(config: Any) -> list[int]:
    """The KV head each query head reads, as transformers' own repeat_kv expands them: repeat_kv
    applied to the KV heads' indices, with n_rep = num_attention_heads // num_key_value_heads."""
    # imported here: Qwen2's modelling takes ~2 s to import, which collecting the claims need not
    from transformers.models.qwen2.modeling_qwen2 import repeat_kv

    n_kv = config.num_key_value_heads
    index = torch.arange(n_kv, dtype=torch.float32, device="cpu").view(1, n_kv, 1, 1)
    return [int(k) for k in repeat_kv(index, config.num_attention_heads // n_kv).flatten()]


def disagreeing_heads(config: Any) -> list[int]:
    """For each KV group, the first query head transformers maps to it that tiling (h % n_kv_heads)
    maps elsewhere: with 8 query heads on 2 KV heads, head 1 (group 0; tiling says 1) and head 4
    (group 1; tiling and a fixed group 0 say 0); 1 and 8 for Qwen2.5-3B's 16 on 2. A group with
    no such head (one KV head, or one query head per KV head) is checked at its first head."""
    kv, n_kv = kv_head_of(config), config.num_key_value_heads
    chosen = []
    for group in range(n_kv):
        members = [h for h, k in enumerate(kv) if k == group]
        chosen.append(next((h for h in members if h % n_kv != group), members[0]))
    return chosen


def donor_bank(values: torch.Tensor, block: int) -> torch.Tensor:
    """The foreign bank for `block`: D's values [1, seq, kv heads, d_head] plus unit noise seeded
    by the block. D alone would not do on the organism: its unused groups' v_proj rows are zero,
    so O's and D's banks agree there and a wrong group would go unseen."""
    noise = torch.randn(values.shape, generator=torch.Generator().manual_seed(DONOR_SEED + block),
                        device="cpu")
    return values + noise.to(values)


def _tokens(model: Loaded, ids: Sequence[int]) -> torch.Tensor:
    return torch.tensor([list(ids)], device=model.device)


def plain_values(model: Loaded, ids: Sequence[int], blocks: Sequence[int]) -> dict[int, torch.Tensor]:
    """Each block's v_proj output on `ids`, read by plain forward hooks, [1, seq, kv heads, d_head]
    by transformers' own view (the columns of KV head k are k·d_head to (k+1)·d_head)."""
    g, values = Geometry.of(model), {}

    def reader(b: int) -> Callable[[], Any]:
        def read(module, args, output):
            values[b] = output.detach().clone().view(1, len(ids), g.n_kv_heads, g.d_head)

        return lambda: model.hf.model.layers[b].self_attn.v_proj.register_forward_hook(read)

    _plain_forward(model, ids, [reader(b) for b in blocks])
    return values


def _plain_forward(model: Loaded, ids: Sequence[int], hooks: list[Callable[[], Any]]) -> None:
    """A plain forward of `ids` with `hooks` registered (each returns its handle), then removed."""
    handles = []
    try:
        for register in hooks:
            handles.append(register())
        with torch.inference_mode():
            model.hf(_tokens(model, ids), use_cache=False, logits_to_keep=LOGITS_KEPT)
    finally:
        for handle in reversed(handles):
            handle.remove()


def reference_message(model: Loaded, ids: Sequence[int], block: int, head: int, kv_head: int,
                      bank: torch.Tensor) -> torch.Tensor:
    """Knowing nothing of the experiment: a plain forward whose v_proj at `block` outputs `bank`
    for KV head `kv_head` (every position) reads query head `head`'s final-position o_proj input,
    computed by the model's own attention. Returns that slice [1, d_head]."""
    g = Geometry.of(model)
    attention = model.hf.model.layers[block].self_attn
    columns = slice(kv_head * g.d_head, (kv_head + 1) * g.d_head)
    read: dict[str, torch.Tensor] = {}

    def write_bank(module, args, output):
        changed = output.clone()
        changed[..., columns] = bank[:, :, kv_head].to(changed)
        return changed

    def read_head(module, args):
        read["z"] = args[0][:, -1].reshape(1, g.n_heads, g.d_head)[:, head].clone()

    _plain_forward(model, ids, [lambda: attention.v_proj.register_forward_hook(write_bank),
                               lambda: attention.o_proj.register_forward_pre_hook(read_head)])
    return read["z"]


def reference_crossing(model: Loaded, ids: Sequence[int], block: int, head: int, kv_head: int,
                       bank: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The reference's message (reference_message), then the plain pre-hook forward that writes
    that slice, and only it, into o_proj's input (reference_forward). Returns the slice
    [1, d_head] and the second forward's last two logits, float."""
    z = reference_message(model, ids, block, head, kv_head, bank)
    return z, reference_forward(model, ids, [head_output_patch(block, head, z)])


def kv_groups(model: Loaded, family: Family, blocks: Indices = None,
              heads: Indices = None) -> ExactChecks:
    """§4 with a foreign bank: O's attention with the donor bank in the head's group
    (compose_head_message), patched into O, against the plain reference that writes the bank
    into the KV head transformers' repeat_kv maps the head to; every block (or `blocks`) at the
    disagreeing heads (or `heads`). Per site: the message and the logits are torch.equal to the
    reference's (Z, logits), and the reference's message is not O's own (moved: else the check
    could not see a wrong group); per block, the experiment's captured D values equal the plain
    hooks' (values)."""
    g = Geometry.of(model)
    blocks = every(blocks, g.n_blocks)
    heads = disagreeing_heads(model.hf.config) if heads is None else list(heads)
    kv = kv_head_of(model.hf.config)
    o_ids, d_ids = (render(getattr(family, k), model.tok).input_ids for k in ("O", "D"))
    assert len(o_ids) == len(d_ids), "O and D differ in length: D's bank cannot stand in for O's"
    native = run_forward(model, o_ids, (), blocks)
    donor = run_forward(model, d_ids, (), blocks)
    plain = plain_values(model, d_ids, blocks)
    checks = ExactChecks(means="{}: O's attention with a foreign value bank differs from the "
                               "plain forward that writes it into the head's KV group")
    for b in blocks:
        cache, captured = native.activations[b], donor.activations[b].values
        checks.add(f"values:{b}", same(captured, plain[b]))
        for h in heads:
            message = compose_head_message(cache.attention, cache.values,
                                           donor_bank(captured, b), h)
            run = run_forward(model, o_ids, [head_output_patch(b, h, message)])
            expected, logits = reference_crossing(model, o_ids, b, h, kv[h],
                                                  donor_bank(plain[b], b))
            checks.add(f"Z:{b}.{h}", same(message, expected))
            checks.add(f"logits:{b}.{h}", same(run.logits, logits))
            checks.add(f"moved:{b}.{h}", not same(expected, cache.head_output_before[:, -1, h]))
    return checks
