"""Seed 004's published work from the organism's ledger: GPT-2's deeper stack is swept at every
position of prompts as GPT-2's tokenizer splits them."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.reference import sampled
from harness.sources.patching import reference
from harness.sources.patching.task import PAIRS


def _prompts(tok, sizes) -> list[str]:
    return [text for clean, corrupted, _, _ in PAIRS.values() for text in (clean, corrupted)]


def _reference_sweep(tok, depth: int) -> tuple[int, int]:
    """The sweep reference's forwards and tokens on a GPT-2 `depth` blocks deep: each pair's two
    runs and its cells, each a forward of the pair's length."""
    forwards = tokens = 0
    for clean, corrupted, _, _ in PAIRS.values():
        a, b = reference.prompt_ids(tok, clean), reference.prompt_ids(tok, corrupted)
        n = 2 + len(reference.cells(depth, len(b), [i for i in range(len(a)) if a[i] != b[i]]))
        forwards, tokens = forwards + n, tokens + n * len(b)
    return forwards, tokens


def _reference_scales(ctx) -> dict[str, Scale]:
    """The reference steps at GPT-2's depth: the sweep reference's sampled cells against the
    organism's every cell; the layer flip's seed patch, and the IOI pair's runs and sampled
    blocks, each patched by the study and the reference."""
    (tiny, tiny_tokens), (published, published_tokens) = (
        _reference_sweep(tok, shape.layers) for tok, shape in
        ((ctx.tiny_tok, ctx.tiny_shape), (ctx.published_tok, ctx.published_shape)))
    flips = [5 + 2 * len(sampled(shape.layers)) for shape in (ctx.tiny_shape, ctx.published_shape)]
    return {"sweep_reference": Scale(rows=published / tiny,
                                     prompt=published_tokens / published / (tiny_tokens / tiny),
                                     why=f"{published} one-prompt forwards of the sampled cells "
                                         f"and runs, against the organism's {tiny}"),
            "layer_flip_reference": Scale(rows=flips[1] / flips[0],
                                          why=f"{flips[1]} forwards at the sampled blocks, "
                                              f"against the organism's {flips[0]}")}


def published_scales(ctx) -> dict[str, Scale]:
    prompt = ctx.prompt_ratio(_prompts)
    depth = ctx.depth_ratio()
    why = f"prompts x{prompt:.1f} (GPT-2's tokenizer)"
    per_layer = Scale(rows=depth, prompt=prompt, why=f"{depth:.1f}x the layers; {why}")
    sweep = Scale(rows=depth * prompt, prompt=prompt,
                  why=f"{depth:.1f}x the layers, {prompt:.1f}x the positions; {why}")
    return {**_reference_scales(ctx), "seed_sweep": sweep, "ioi_sweep": sweep,
            "seed_hook_reference": per_layer, "seed_full_patch": per_layer,
            **{step: Scale(prompt=prompt, why=why) for step in ("seed_runs", "ioi_runs",
                                                               "seed_layer_flip", "sweep_rows",
                                                               "behaviour_reference")}}
