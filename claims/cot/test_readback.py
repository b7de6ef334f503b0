"""Seed 000's readback anchors (issue 36): each batched step's rows read back in the mode under
test (harness/sources/cot/step_rows.py), the direction the §2, §3 and §5 findings assume, the §7
screen's coverage, its random control re-drawn and where its residuals came from
(harness/sources/cot/readback.py)."""
from __future__ import annotations

from claims.cot.shared import NB, PATCHED
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.criteria import Every, NoneFailed, NoneOf
from harness.sources.cot import readouts
from harness.sources.cot.batched_rows import TIE_REASON
from harness.sources.cot.readback import REDRAW_REASON

ROWS_PROVENANCE = "issue 36: a batched run checks its own rows; " + NB + "'s rows are greedy"
MISREAD = NoneFailed("misread_rows", "misread", of="checked")
PICKS = ("in the mode under test: fast mode's batched rows, or faithful mode's one at a time",
         "the shortest, median and longest prefix of each step (the most and least left "
         "padding), their first 16 tokens, teacher-forced through the plain transformers model "
         "with the row's edit written by a plain forward hook",
         "a token counts as predicted within " + TIE_REASON)
ANSWERS = ("every answer a forced step recorded is read again from its row's ids, in the "
           "step's row order (controls first)",)


def rows_claim(id: str, section: str, statement: str, guards: tuple[str, ...],
               decisions: tuple[str, ...] = (), *, reads: str):
    """A batched step's rows-read-back anchor, reading its rows step and guarding the steps
    whose rows it reads back: none of its checked tokens or answers misread."""
    return claim(id, reads=reads, readout=readouts.step_rows, kind="anchor", section=section,
                 statement=statement,
                 headline="{tokens} tokens of rows {steps} and {answers} answers read back; "
                          "misread: {misread}",
                 published={"misread_rows": 0}, provenance=ROWS_PROVENANCE.format(section),
                 criterion=MISREAD, holds=Holds(MISREAD), guards=guards,
                 decisions=PICKS + decisions)


test_early_rows = rows_claim("cot.early-rows", "2", "A few of §2's forced rows are what one plain forward of their own prefix predicts, and every recorded answer is its row's.",
                             ("cot_early",), ANSWERS, reads="cot_early_rows")


test_splice_rows = rows_claim("cot.splice-rows", "3", "A few of §3's splice-control and single-mistake continuations are what one plain forward of their own prefix predicts.",
                              ("cot_splice", "cot_single_mistake"), reads="cot_splice_rows")


test_corruption_rows = rows_claim("cot.corruption-rows", "4", "A few of §4's forced rows (last answer, full block, with their controls) are what one plain forward of their own prefix predicts, and every recorded answer is its row's.",
                                  ("cot_last_answer", "cot_full_corruption"), ANSWERS, reads="cot_corruption_rows")


test_cut_probe_rows = rows_claim("cot.cut-probe-rows", "5", "A few of §5's forced rows are what one plain forward of their own prefix predicts, and every recorded answer is its row's.",
                                 ("cot_cut_probe",), ANSWERS, reads="cot_cut_probe_rows")


test_decode_loop_rows = rows_claim("cot.decode-loop-rows", "6", "§6's +0.0 rows and both noised arms are what one plain forward of their prompt, the noise added where the arm added it, predicts.",
                                   ("cot_noop", "cot_specificity"), ("both noised arms are checked whole: the late arm writes only after the answer",), reads="cot_decode_loop_rows")


test_patch_rows = rows_claim("cot.patch-rows", "7", "A few of §7's donor, self-patch, screen and continuation rows are what one plain forward of their prefix, patched where the row was, predicts.",
                             ("cot_pairs",) + PATCHED, ("donor traces forced past the filter (the rehearsal's script) are not this model's "
                              "decode and are left out",), reads="cot_patch_rows")


test_full_block_answer = claim("cot.full-block-answer", reads=("cot_early", "cot_usable"), readout=readouts.full_block_answer,
    kind="anchor", section="2",
    statement="Forced right after its whole thinking block, every usable trace gives its true answer: the end §2's rising curve climbs to, and what 'CoT changes the answer' and §5's failing cut are measured against.",
    headline="{correct}/{n} true after the whole block; wrong: {wrong}",
    published={"correct": 20, "n": 20},
    provenance=NB.format(2) + ", the forced answer's correct rate 1.00 at fraction 1.0 of 20",
    criterion=Every("correct", slack=1), holds=Holds(Every("correct"), behavioural=True),
    guards=("cot_early", "cot_cut_probe"),
    decisions=("read from §2's own forced rows at fraction 1.0: no forward of its own",
               "direction: §2's curve is read as improving toward the true answer and §5's "
               "cut probe as failing; a model whose forced answer after its whole block is "
               "not the true one makes both readings meaningless",
               "published (bf16): one problem may flip, as the findings it guards allow; on "
               "float32 organisms every one must hold"))


test_true_product_preferred = claim("cot.true-product-preferred", reads="cot_preference", readout=readouts.true_product_preferred,
    kind="anchor", section="3",
    statement="At each trace's first product statement the model gives the true product's tokens a higher log-probability than the corrupted product §3 and §5 splice there.",
    headline="{n} traces, true product preferred by at least {min_margin} nats; reversed: {reversed}",
    published={"reversed": []},
    provenance=NB.format(3) + ": each baseline trace states its true product there, "
               "greedily (the model's own most likely tokens)",
    criterion=NoneOf("reversed", of="n"),
    holds=Holds(NoneOf("reversed", of="n"), behavioural=True),
    guards=("cot_single_mistake", "cot_cut_probe"),
    decisions=("direction: 'recovered' (back to the true value) and 'faithful' (following "
               "the injection) in §3 and §5, §3's re-derivation and its cues after a mistake "
               "all read the spliced value as a mistake, one the model itself would not "
               "write there",
               "one plain forward per value, the tokens the splices write, after the trace "
               "up to its first product statement"))


test_screen_coverage = claim("cot.screen-coverage", reads="cot_screen_coverage",
    readout=attributes("declared", "covered", "pairs", "gaps"),
    kind="anchor", section="7",
    statement="The §7 screen wrote one row per pair at every declared layer, in order, and its summary holds each layer once.",
    headline="layers {covered} of declared {declared}, {pairs} pairs; gaps: {gaps}",
    published={"gaps": []},
    provenance=NB.format(7) + "'s screen: `for layer in SCREEN` over every pair",
    criterion=NoneOf("gaps", of="declared"), holds=Holds(NoneOf("gaps", of="declared")),
    guards=("cot_screen",),
    decisions=("the declared layers are the profile's (the published 4–34, mapped to the "
               "organism's depth), not the screen's own; the covered ones are those its rows "
               "were written at",))


test_random_control_redrawn = claim("cot.random-control-redrawn", reads="cot_random_redrawn",
    readout=attributes("layer", "pairs", "mismatched"),
    kind="anchor", section="7",
    statement="Each pair's §7 random control is its own residual plus a seed-i normal draw scaled to the donor-minus-own norm per step, re-drawn here.",
    headline="{pairs} controls at layer {layer} re-drawn; mismatched: {mismatched}",
    published={"mismatched": []},
    provenance=NB.format(7) + "'s random_control(r, BEST, seed=i)",
    criterion=NoneOf("mismatched", of="pairs"), holds=Holds(NoneOf("mismatched", of="pairs")),
    guards=("cot_continuations",),
    decisions=("re-drawn with plain torch calls, not the experiment's helper, and compared "
               "with the vectors the random-condition runs were given (which "
               "cot.vector-write-fires-once shows are written as given)",
               "within " + REDRAW_REASON))


test_residual_sources = claim("cot.residual-sources", reads="cot_residual_sources",
    readout=attributes("pairs", "layers", "mismatched"),
    kind="anchor", section="7",
    statement="Each pair's donor residuals are its donor problem's, and its own residuals its recipient's: plain forwards of their prompts and traces give them bit for bit at the steps that emit each product.",
    headline="{pairs} pairs at layers {layers} re-read; mismatched: {mismatched}",
    published={"mismatched": []},
    provenance=NB.format(7) + "'s donor and recipient residuals at the product steps",
    criterion=NoneOf("mismatched", of="pairs"), holds=Holds(NoneOf("mismatched", of="pairs")),
    guards=("cot_pairs",),
    decisions=("which prompt a written value came from, checked by its inputs: each pair's "
               "donor is task.donor_for of its recipient, its donor prompt that donor's, and "
               "each residual is re-read by torch forward hooks on a plain forward of that "
               "prompt and trace (no nnsight), compared with torch.equal",))
