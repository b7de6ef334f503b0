"""The tutorial's reference steps' published work from the organism's ledger: the sampled heatmap
cells of GPT-2's deeper stack, at the length GPT-2's tokenizer gives the published pair (the
other steps are priced as on the organism)."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.sources.ioi_tutorial import reference


def _length(tok, sizes) -> int:
    return len(tok(sizes.corrupted, add_special_tokens=False).input_ids)


def _swapped(tok, sizes) -> list[int]:
    clean, corrupted = (tok(p, add_special_tokens=False).input_ids
                        for p in (sizes.clean, sizes.corrupted))
    return [i for i, (a, b) in enumerate(zip(clean, corrupted)) if a != b]


def published_scales(ctx) -> dict[str, Scale]:
    lengths = [_length(ctx.tiny_tok, ctx.tiny_sizes), _length(ctx.published_tok, ctx.published_sizes)]
    forwards = [2 + len(reference.cells(shape.layers, n, _swapped(tok, sizes)))
                for shape, n, tok, sizes in
                ((ctx.tiny_shape, lengths[0], ctx.tiny_tok, ctx.tiny_sizes),
                 (ctx.published_shape, lengths[1], ctx.published_tok, ctx.published_sizes))]
    prompt = lengths[1] / lengths[0]
    why = f"prompts x{prompt:.1f} (GPT-2's tokenizer)"
    return {"tutorial_behaviour_reference": Scale(prompt=prompt, why=why),
            "tutorial_sweep_reference": Scale(
                rows=forwards[1] / forwards[0], prompt=prompt,
                why=f"{forwards[1]} one-prompt forwards of the sampled cells and runs, against "
                    f"the organism's {forwards[0]}; {why}")}
