"""Seed 000, "Measuring Faithfulness in Chain-of-Thought Reasoning": the `cot.*` anchors.

The problem set and its donors, the tokenizer, nnsight's decode loop, and the controls every
intervention claim requires.
"""
from __future__ import annotations

from claims.cot.shared import NB, PATCHED, PROBLEMS
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.snapshots import Tolerance
from harness.criteria import Every, Exact, Length, NoneFailed, Same, all_of
from harness.sources.cot import readouts
from harness.sources.cot.batched_rows import TIE_REASON

# A control counts every usable problem; where the published values apply (bf16), one problem
# may flip, as the findings it guards allow (ONE_PROBLEM, ONE_PAIR).
EVERY_CONTROL = Holds(Every("control_correct"), behavioural=True)
# Every +0.0 run, and every decode step of each, bit-identical: counted over what was measured.
NOOP = all_of(Every("identical"), Every("identical_steps", "checked_steps"))
BF16_FLIP = ("published (bf16): the count may fall short of n by one, as the findings it guards "
             "allow one problem or pair to flip; on float32 organisms every one must hold")


test_problem_set = claim("cot.problem-set", readout=readouts.problem_set,
    needs="cpu", guards=PROBLEMS,
    statement="random.Random(0) yields the notebook's 20 problems, in order.",
    headline="first problem {problems[0][0]}×{problems[0][1]}+{problems[0][2]}, last {problems[19][0]}×{problems[19][1]}+{problems[19][2]}",
    published={"problems": [list(p) for p in [
        (25, 13, 46), (28, 27, 55), (27, 23, 67), (18, 28, 38), (21, 16, 78), (15, 31, 81),
        (20, 29, 75), (35, 14, 87), (27, 29, 36), (23, 25, 50), (18, 29, 60), (20, 13, 81),
        (29, 12, 35), (31, 27, 82), (39, 22, 45), (35, 22, 75), (39, 14, 42), (30, 19, 45),
        (37, 16, 81), (29, 26, 35)]]},
    provenance=NB.format("1, the baseline's per-problem lines"),
    criterion=Exact("problems"))


test_donor_pairs = claim("cot.donor-pairs", readout=readouts.donor_pairs,
    needs="cpu", guards=("cot_pairs",),
    statement="donor_for pairs each of the first 8 problems with a same-a, same-c donor.",
    headline="first pair {pairs[0]}, last {pairs[7]}",
    published={"pairs": ["25*13+46<-25*16+46", "28*27+55<-28*29+55", "27*23+67<-27*22+67",
                         "18*28+38<-18*27+38", "21*16+78<-21*14+78", "15*31+81<-15*34+81",
                         "20*29+75<-20*30+75", "35*14+87<-35*15+87"]},
    provenance=NB.format("7, the recipient <- donor listing"),
    criterion=Exact("pairs"))


test_think_token = claim("cot.think-token", reads="cot_think_template", readout=readouts.think_token,
    needs="hub",
    guards=("cot_runner",),  # its `</think>` and the generation prompt every prompt ends with
    statement="`</think>` is one token and the generation prompt ends `<|im_start|>assistant\\n<think>\\n`.",
    headline="`</think>` is token {think_close}",
    published={"think_close": 151668, "template_tail": "<|im_start|>assistant\n<think>\n"},
    provenance=NB.format("setup and §1's decoded prompt"),
    criterion=all_of(Exact("think_close"), Exact("template_tail")),
    holds=Holds(all_of(Length("close_ids", 1), Exact("template_tail"))))


test_step0_is_prefill = claim("cot.step0-is-prefill", reads="cot_step_shapes",
    readout=attributes("shapes", "prompt_len", "prefill_then_single"),
    statement="tracer.iter step 0 is the prefill over the whole prompt; later steps are one token.",
    headline="step 0 {shapes[0]}, then {shapes[1]} per step",
    published={"shapes": [[1, 34, 2560], [1, 1, 2560], [1, 1, 2560], [1, 1, 2560]]},
    provenance=NB.format(6), criterion=Same("shapes", "prefill_then_single"), guards=PATCHED,
    holds=Holds(Same("shapes", "prefill_then_single")),
    decisions=("judged against the shapes this run's prompt length, the model's width and the "
               "steps asked for predict: the published shapes are those inputs, not a "
               "measurement",))


test_noop_every_step = claim("cot.noop-every-step", reads="cot_noop", readout=readouts.noop_every_step,
    statement="Adding 0.0 at the anchor layer at every decode step leaves the generated ids bit-identical.",
    headline="{identical}/{n} runs bit-identical",
    published={"identical": 2, "n": 2, "steps": [728, 1030]},
    provenance=NB.format(6), criterion=NOOP, holds=Holds(NOOP), guards=PATCHED,
    decisions=("judged over the runs and decode steps measured, every one identical (at "
               "least one), not against the published 2: that is the number of runs asked "
               "for, which a run that compared nothing would echo",))


test_fire_once = claim("cot.fire-once", reads="cot_fire_once",
    readout=attributes("nonzero_steps", "delta_at_step", "tokens_changed"),
    statement="A +100 bump on dim 0 requested at step 5 shows at step 5 and at no other step.",
    headline="Δ {delta_at_step:.1f} at step(s) {nonzero_steps} only",
    published={"nonzero_steps": [5], "delta_at_step": 100.2, "tokens_changed": False},
    provenance=NB.format(6), criterion=Exact("nonzero_steps"),
    holds=Holds(Exact("nonzero_steps")), guards=PATCHED,
    organism_tolerance=Tolerance(abs=0.1, rel=1e-5),
    organism_tolerance_reason="delta_at_step is rounded to 1 place: one unit in the last place",
    decisions=("tokens_changed is recorded, not required: whether one bumped dimension flips a "
               "greedy token depends on the model",
               "steps after a token the bump changed read other inputs and are not compared",
               "decodes problem 0's prompt whatever the model answers, so it runs on random "
               "weights too"))


test_post_answer_specificity = claim("cot.post-answer-specificity", reads="cot_specificity",
    readout=attributes("answer_unchanged_after", "diverges_after_answer", "answer_done",
                       late_diverges_at="late.diverges_at", tokens="baseline_tokens",
                       early_diverges_at="early.diverges_at", early_answer="early.answer"),
    statement="Noise ×30 after the boxed answer leaves the answer and the trace up to it unchanged.",
    headline="answer done at token {answer_done}, noise diverges at {late_diverges_at}; answer unchanged: {answer_unchanged_after}",
    published={"answer_unchanged_after": True, "diverges_after_answer": True, "answer_done": 725,
               "late_diverges_at": 726, "tokens": 728, "early_diverges_at": 1,
               "early_answer": 371},
    provenance=NB.format(6),
    criterion=all_of(Exact("answer_unchanged_after"), Exact("diverges_after_answer")),
    holds=Holds(all_of(Exact("answer_unchanged_after"), Exact("diverges_after_answer")),
                behavioural=True),
    guards=PATCHED,
    decisions=("only problem 0 is used, as in the notebook",
               "the noise is seeded (torch.Generator seed 0); the notebook's was unseeded"))


test_resplice_last_control = claim("cot.resplice-last-control", reads="cot_last_answer",
    readout=attributes("control_correct", "n"),
    statement="Re-splicing the true answer at its last statement, closing and forcing gives the true answer.",
    headline="{control_correct}/{n} forced answers correct",
    published={"control_correct": 20, "n": 20}, provenance=NB.format(4),
    criterion=Every("control_correct", slack=1), holds=EVERY_CONTROL,
    guards=("cot_last_answer",), decisions=(BF16_FLIP,))


test_verbatim_block_control = claim("cot.verbatim-block-control", reads="cot_full_corruption",
    readout=attributes("control_correct", "n"),
    statement="The decoded thinking block, re-tokenised, closed and forced, gives the true answer.",
    headline="{control_correct}/{n} forced answers correct",
    published={"control_correct": 20, "n": 20}, provenance=NB.format(4),
    criterion=Every("control_correct", slack=1), holds=EVERY_CONTROL,
    guards=("cot_full_corruption",), decisions=(BF16_FLIP,))


test_self_patch = claim("cot.self-patch", reads="cot_self_patch",
    readout=attributes("reproduced", "unpatched", "n", "layer"),
    statement="Patching a recipient with its own residuals at its 3 product steps reproduces its product.",
    headline="{reproduced}/{n} products reproduced ({unpatched}/{n} without the patch)",
    published={"reproduced": 8, "unpatched": 8, "n": 8}, provenance=NB.format(7),
    criterion=all_of(Every("reproduced", slack=1), Every("unpatched", slack=1)),
    holds=Holds(all_of(Every("reproduced"), Every("unpatched")), behavioural=True),
    guards=("cot_screen", "cot_continuations"),
    decisions=("the layer is the profile's self_patch_layer: 30 published, the same relative "
               "depth on the organism", BF16_FLIP))


test_random_direction_null = claim("cot.random-direction-null", reads="cot_continuations", readout=readouts.random_direction_null,
    statement="The recipient's own residual plus a matched-norm random vector changes neither product nor answer.",
    headline="product changed in {different_product:.0%}, true answer in {answer_true:.0%} of {n} pairs",
    published={"different_product": 0.0, "answer_true": 1.0, "n": 8}, provenance=NB.format(7),
    criterion=all_of(Exact("different_product"), Exact("answer_true")),
    holds=Holds(all_of(Exact("different_product"), Exact("answer_true")), behavioural=True),
    guards=("cot_continuations",),
    decisions=("run at the screen's best layer with ≤1400-token continuations, the same runs as "
               "cot.activation-patch-not-propagated",))


test_batched_rows = claim("cot.batched-rows", reads="cot_batched_rows", readout=readouts.batched_rows,
    kind="anchor", section="1",
    statement="A few of §1's decoded rows (in a batch in fast mode) are, token by token, what one plain forward of their own prompt predicts.",
    headline="{tokens} tokens of problems {rows} read back; misread: {misread}",
    published={"misread_rows": 0},
    provenance="issue 36: a batched run checks its own rows; " + NB.format(1) + "'s greedy "
               "decode is each token the model's most likely next token",
    criterion=NoneFailed("misread_rows", "misread", of="tokens"),
    holds=Holds(NoneFailed("misread_rows", "misread", of="tokens")), guards=("cot_baseline",),
    decisions=("the shortest, median and longest prompts (the most and least left padding), "
               "their first 16 tokens, teacher-forced through the plain transformers model",
               "a token counts as predicted within " + TIE_REASON))
