"""Seed 000's published work from the organism's ledger: the published traces are longer by the
baseline claim's published mean length over the organism's pinned one; prompts by the chat
templates' lengths; forced answers and product writes decode the same few tokens."""
from __future__ import annotations

from harness.cost.plan import Scale
from harness.profiles import Mode
from harness.reference import sampled
from harness.sources.cot.runner import prompt_text
from harness.sources.cot.task import PROBLEMS

LENGTH_CLAIM = ("cot.baseline-accuracy", "mean_tokens")


def published_scales(ctx) -> dict[str, Scale]:
    trace = ctx.published_value(*LENGTH_CLAIM) / ctx.pinned_value(*LENGTH_CLAIM)
    prompt = ctx.prompt_ratio(lambda tok, sizes: [prompt_text(tok, p) for p in PROBLEMS])
    why_trace = f"traces x{trace:.1f} ({LENGTH_CLAIM[0]} mean_tokens, published/organism)"
    why_prompt = f"prompts x{prompt:.1f} (chat template, published/organism tokenizer)"
    screen = len(ctx.published_sizes.screen_layers) / len(ctx.tiny_sizes.screen_layers)
    generated = Scale(prompt=prompt, decode=trace, why=f"{why_prompt}; {why_trace}")
    forced = Scale(prompt=trace, why=f"prefixes hold the trace: {why_trace}; answers as long")
    return {
        "cot_baseline": generated, "cot_noop": generated, "cot_specificity": generated,
        "cot_fire_once": Scale(prompt=prompt, why=why_prompt),
        "cot_step_shapes": Scale(prompt=prompt, why=why_prompt),
        "cot_batched_rows": Scale(prompt=prompt, why=f"{why_prompt}; 16 tokens of each row"),
        "cot_early": forced, "cot_last_answer": forced, "cot_full_corruption": forced,
        "cot_cut_probe": forced, "cot_self_patch": forced,
        "cot_screen": Scale(rows=screen, prompt=trace,
                            why=f"{screen:.1f}x the screened layers; {why_trace}"),
        "cot_splice": Scale(prompt=trace, decode=trace, why=why_trace),
        "cot_single_mistake": Scale(prompt=trace, decode=trace, why=why_trace),
        "cot_pairs": Scale(prompt=trace, decode=trace, why=why_trace),
        "cot_continuations": Scale(prompt=trace, decode=trace, why=why_trace),
        "cot_early_rows": forced, "cot_corruption_rows": forced, "cot_cut_probe_rows": forced,
        "cot_splice_rows": forced, "cot_patch_rows": forced, "cot_preference": forced,
        "cot_decode_loop_rows": Scale(prompt=trace, why=f"{why_trace}; noised arms checked whole"),
        **reference_scales(ctx, trace, why_trace),
        **references(ctx.mode, generated, forced),
    }


# §7's reference, per pair: its donor's trace checked, two residual reads and three continuations,
# besides one patched forward per screened layer.
PAIR_FORWARDS = 6


def reference_scales(ctx, trace: float, why_trace: str) -> dict[str, Scale]:
    """Issue 49's reference steps: one forward per row as long as its prefix and continuation;
    §3's on the sampled rows of the published problems (every one on the organism), §7's on
    every pair, one more forward per pair for each screened layer the published model adds."""
    published = len(sampled(ctx.published_sizes.problems)) / ctx.tiny_sizes.problems
    pair = ((PAIR_FORWARDS + len(ctx.published_sizes.screen_layers))
            / (PAIR_FORWARDS + len(ctx.tiny_sizes.screen_layers)))
    sampled_rows = Scale(rows=published, prompt=trace,
                         why=f"{published:.2f}x the rows (sampled, every one on the organism); "
                             f"{why_trace}")
    return {"cot_splice_reference": sampled_rows, "cot_mistake_reference": sampled_rows,
            "cot_patching_reference": Scale(rows=pair, prompt=trace,
                                            why=f"{pair:.2f}x the forwards per pair (screened "
                                                f"layers); {why_trace}")}


def references(mode: Mode, generated: Scale, forced: Scale) -> dict[str, Scale]:
    """Issue 49's reference steps: the organism's sampled rows are the published ones (three of
    each study's), decoded alone as its traces and forced answers are; in fast mode the published
    model's bf16 batches are not re-decoded (the reference reads their rows), so those decode
    nothing. The preference reference's plain forwards run in both modes."""
    lent = Scale(rows=0, prompt=0, decode=0, why="bf16 batches: the reference reads the study's "
                 "rows instead of decoding them")
    decoded = {"cot_baseline_reference": generated, "cot_early_reference": forced,
               "cot_last_answer_reference": forced, "cot_full_corruption_reference": forced,
               "cot_cut_probe_reference": forced}
    return {**{k: lent if mode is Mode.FAST else v for k, v in decoded.items()},
            "cot_preference_reference": forced}
