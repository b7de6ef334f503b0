"""Seed 004's published work from the organism's ledger: GPT-2's deeper stack is swept at every
position of prompts as GPT-2's tokenizer splits them."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.sources.patching.task import PAIRS


def _prompts(tok, sizes) -> list[str]:
    return [text for clean, corrupted, _, _ in PAIRS.values() for text in (clean, corrupted)]


def published_scales(ctx) -> dict[str, Scale]:
    prompt = ctx.prompt_ratio(_prompts)
    depth = ctx.depth_ratio()
    why = f"prompts x{prompt:.1f} (GPT-2's tokenizer)"
    per_layer = Scale(rows=depth, prompt=prompt, why=f"{depth:.1f}x the layers; {why}")
    sweep = Scale(rows=depth * prompt, prompt=prompt,
                  why=f"{depth:.1f}x the layers, {prompt:.1f}x the positions; {why}")
    return {"seed_sweep": sweep, "ioi_sweep": sweep, "seed_hook_reference": per_layer,
            "seed_full_patch": per_layer,
            **{step: Scale(prompt=prompt, why=why) for step in ("seed_runs", "ioi_runs",
                                                               "seed_layer_flip", "sweep_rows")}}
