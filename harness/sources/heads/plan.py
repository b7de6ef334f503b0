"""Seed 001's published work from the organism's ledger: §2's sweep runs over every block and the
head screens over every query head of the deeper, wider model; prompts as the published chat
template tokenizes them."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.reference import sampled
from harness.sources.heads.task import OPENING, generate_family, raw_text


def _prompts(tok, sizes) -> list[str]:
    questions = [generate_family(OPENING, i).R for i in range(8)]
    return [tok.apply_chat_template([{"role": "user", "content": raw_text(q)[0]}],
                                    tokenize=False, add_generation_prompt=True)
            for q in questions]


def cells(n: int, read: int) -> int:
    """The cells a reference anchor re-runs of `n`: `sampled`, and `read` more a finding reads
    that sampling may miss (none where it takes every cell)."""
    return len(sampled(n)) + (read if n > len(sampled(n)) else 0)


def reference_scales(ctx, why: str) -> dict[str, Scale]:
    """Issue 49's reference anchors: prefills per re-run family, published over organism, where
    the cells they re-run differ (blocks: a donor prefill and one per block; screens: a donor, H
    and O and two per head, or §5's natives, message and X and one per head); the families they
    re-run (every opening one, main 0, 16 and 31) and §4–§6's cells are the organism's."""
    pub, tiny = ctx.published_shape, ctx.tiny_shape
    ratio = {"heads_sweep": (1 + cells(pub.layers, 1)) / (1 + cells(tiny.layers, 1)),
             "heads_opening": (3 + 2 * cells(pub.heads, 1)) / (3 + 2 * cells(tiny.heads, 1)),
             "heads_main_screen": (3 + 2 * cells(pub.heads, 2)) / (3 + 2 * cells(tiny.heads, 2)),
             "heads_challenged": (4 + cells(pub.heads, 2)) / (4 + cells(tiny.heads, 2))}
    steps = ("heads_sweep", "heads_opening", "heads_main_screen", "heads_native_answers",
             "heads_first_crossing", "heads_challenged", "heads_content", "heads_joint",
             "heads_grid", "heads_record_counts")
    return {f"{step}_reference": Scale(rows=ratio.get(step, 1.0), prompt=ctx.prompt_ratio(_prompts),
                                       why=(f"{ratio[step]:.2f}x the prefills per family "
                                            "(sampled cells); " if step in ratio else
                                            "the organism's families and cells; ") + why)
            for step in steps}


def published_scales(ctx) -> dict[str, Scale]:
    prompt = ctx.prompt_ratio(_prompts)
    depth = ctx.depth_ratio()
    heads = ctx.published_shape.heads / ctx.tiny_shape.heads
    why = f"prompts x{prompt:.1f} (published chat template)"
    screen = Scale(rows=heads, prompt=prompt, why=f"{heads:.1f}x the query heads; {why}")
    blocks = Scale(rows=depth, prompt=prompt, why=f"{depth:.1f}x the blocks; {why}")
    every_head = Scale(rows=depth * heads, prompt=prompt,
                       why=f"{depth:.1f}x the blocks, {heads:.1f}x the query heads; {why}")
    return {
        "heads_sweep": blocks,
        **{step: blocks for step in ("heads_reference_forward", "heads_edit_receipts",
                                     "heads_residual_identity")},
        "heads_head_identity": every_head, "heads_av_identity": every_head,
        # one query head per KV group: Qwen2.5-3B has as many KV heads (2) as the organism
        "heads_kv_groups": blocks,
        "heads_opening": screen, "heads_main_screen": screen, "heads_screen_readback": screen,
        "heads_sweep_readback": blocks,
        "heads_crossing_readback": Scale(prompt=prompt, why=f"two head sites and nine grid cells "
                                         f"on main family 0, as on the organism; {why}"),
        **{step: Scale(prompt=prompt, why=f"as many surviving heads as on the organism; {why}")
           for step in ("heads_lab", "heads_first_crossing", "heads_challenged", "heads_content",
                        "heads_joint", "heads_grid")},
        **reference_scales(ctx, why),
    }
