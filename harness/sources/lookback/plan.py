"""Seed 003's published work from the organism's ledger: the sweeps run over every layer (or the
sizes' layer lists) of the deeper model, on prompts as long as the published tokenizer and
instruction make them. Error filtering keeps as many rows as on the organism."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.profiles import Mode
from harness.reference import sampled
from harness.sources.lookback.task import INSTRUCTION, build_binding


def _prompts(tok, sizes) -> list[str]:
    return [r.clean for r in build_binding(instruction=INSTRUCTION if sizes.with_instruction
                                           else "")][:50]


def per_chunk(ctx, published: int, tiny: int, fast_extra: int, what: str) -> tuple[float, str]:
    """A per-layer step's rows, published over organism: a forward per layer of `published` and
    `tiny`, plus, in fast mode, `fast_extra` forwards per chunk whatever the depth; and why."""
    extra = fast_extra if ctx.mode is Mode.FAST else 0
    if not extra:
        return published / tiny, what
    return ((published + extra) / (tiny + extra),
            f"({published}+{extra})/({tiny}+{extra}): {what}, and {extra} more per chunk")


def solo(reads: int, published: int, tiny: int) -> tuple[float, str]:
    """A reference anchor's forwards per sampled row, published over organism: `reads` unedited
    forwards, then one per sampled layer (or L) of `published` and `tiny`; and why."""
    pub, org = len(sampled(published)), len(sampled(tiny))
    return ((reads + pub) / (reads + org),
            f"({reads}+{pub})/({reads}+{org}): {reads} read(s) and the sampled layers, per row")


def published_scales(ctx) -> dict[str, Scale]:
    prompt = ctx.prompt_ratio(_prompts)
    pub, tiny = ctx.published_sizes, ctx.tiny_sizes
    why = f"prompts x{prompt:.1f} (published tokenizer and instruction); rows kept as on the organism"

    def layers(n: float, what: str) -> Scale:
        return Scale(rows=n, prompt=prompt, why=f"{n:.1f}x the layers ({what}); {why}")

    # §4/§6 in fast mode: one counterfactual read per chunk, then a clean-only write per layer.
    swept = layers(*per_chunk(ctx, ctx.published_shape.layers, ctx.tiny_shape.layers, 1,
                              "every layer"))
    def alone(reads: int, published: int, tiny: int) -> Scale:
        n, what = solo(reads, published, tiny)
        return Scale(rows=n, prompt=prompt, why=f"{what}; the same sampled rows; {why}")

    depth = (ctx.published_shape.layers, ctx.tiny_shape.layers)
    # Issue 49's reference anchors: the same few rows, one prompt at a time through plain hooks.
    references = {
        **{f"{step}_reference": Scale(prompt=prompt, why=f"the same sampled rows alone; {why}")
           for step in ("lookback_behaviour", "lookback_visibility", "lookback_binding_filter",
                        "lookback_source_filter", "lookback_answer_filter", "lookback_low_rank")},
        **{f"{step}_reference": alone(1, *depth) for step in (
            "lookback_reversed", "lookback_same_position", "lookback_opaque", "lookback_answer")},
        "lookback_source_freeze_reference": alone(2, len(pub.source_freeze_layers),
                                                  len(tiny.source_freeze_layers)),
        "lookback_source_plain_reference": alone(1, len(pub.source_plain_layers),
                                                 len(tiny.source_plain_layers)),
    }
    return {
        **references,
        **{step: swept for step in (
            "lookback_reversed", "lookback_same_position", "lookback_opaque")},
        "lookback_answer": swept,
        "lookback_source_freeze": layers(len(pub.source_freeze_layers)
                                         / len(tiny.source_freeze_layers), "source_freeze_layers"),
        "lookback_source_plain": layers(len(pub.source_plain_layers)
                                        / len(tiny.source_plain_layers), "source_plain_layers"),
        # Fast mode: the read and the unedited clean forward per chunk, then a write per layer.
        "lookback_self_patch": layers(*per_chunk(ctx, len(pub.self_patch_layers),
                                                 len(tiny.self_patch_layers), 2,
                                                 "self_patch_layers")),
        **{step: Scale(prompt=prompt, why=why) for step in (
            "lookback_behaviour", "lookback_visibility", "lookback_binding_filter",
            "lookback_source_filter", "lookback_answer_filter", "lookback_low_rank")},
        # The readbacks re-run a fixed few cells alone (first, middle and last rows and layers).
        **{step: Scale(prompt=prompt, why=f"the same cells, one row each; {why}") for step in (
            "lookback_binding_readback", "lookback_source_readback", "lookback_answer_readback",
            "lookback_predict_readback", "lookback_filter_readback",
            "lookback_low_rank_readback")},
    }
