"""Seed 004, "Running an activation-patching experiment": the `patching.*` rows and a corrected pair."""
from __future__ import annotations

from claims.patching.shared import PAIRS, PATCHES
from harness.attribute_readout import attributes
from harness.claims import Holds, claim
from harness.snapshots import Tolerance
from harness.criteria import AtMost, Every, Exact, NoneOf, Recorded, all_of
from harness.nulls import AsMeasured, Null
from harness.sources.patching import readouts

SEED = "seed 004's code and comments (it prints no numbers)"
FLOAT = Tolerance(abs=1e-3, rel=1e-3)
# Logit differences are rounded to 4 places: a 1e-7 kernel difference that crosses a rounding
# boundary moves the last digit by one.
ROUNDED = {"organism_tolerance": Tolerance(abs=1e-4, rel=1e-5),
           "organism_tolerance_reason": "rounded to 4 places: one unit in the last place"}


test_single_token_words = claim("patching.single-token-words", reads="patching_single_token_words",
    readout=attributes("words", "multi_token"),
    kind="anchor", section="code cell", needs="hub",
    tokenizer_only=True, guards=PAIRS,
    statement="Both answers, each prompt's first word and every IOI name, place and object (with its leading space) are one token.",
    headline="{words} words checked, multi-token: {multi_token}",
    published={"multi_token": []},
    provenance=SEED + ": '# expect \"Mary\"' reads one next token; that every word is one "
               "token is the seed's assumption",
    criterion=Exact("multi_token"), holds=Holds(NoneOf("multi_token", of="words")),
    decisions=("the words are those of every pair the experiments run (the seed's and the "
               "corrected IOI pair) and of the IOI sentences the organism learns",))


test_aligned_pairs = claim("patching.aligned-pairs", reads="patching_aligned_pairs",
    readout=attributes("pairs", "differing", "misaligned"),
    kind="anchor", section="code cell", needs="hub",
    tokenizer_only=True, guards=PAIRS,
    statement="Each pair's clean and corrupted prompts have equal length and differ only where the two names swap.",
    headline="{pairs} pairs checked, misaligned: {misaligned}",
    published={"misaligned": []},
    provenance=SEED + ": patch_hook returns clean_cache[hook.name] to the corrupted run, which "
               "needs equal shapes; that the pair differs only at the names is its assumption",
    criterion=Exact("misaligned"), holds=Holds(NoneOf("misaligned", of="pairs")),
    decisions=("BOS first, as TransformerLens prepends it and pair_ids builds the ids",
               "checked for the seed's pair and the corrected IOI pair, every pair the "
               "experiments run"))


test_full_patch_identity = claim("patching.full-patch-identity", reads="seed_full_patch", readout=readouts.full_patch_identity,
    section="code cell", needs="hub",
    guards=("seed_runs", "ioi_runs") + PATCHES,
    statement="Patching the clean run's whole residual stream at layer L reproduces the clean logits exactly.",
    headline="clean logits reproduced at every layer: {equal_at_every_layer} ({layers} layers)",
    published={"equal_at_every_layer": True}, provenance=SEED + "; the register's reading of it",
    criterion=Exact("equal_at_every_layer"), holds=Holds(Exact("equal_at_every_layer")),
    decisions=("block L's output is TransformerLens' blocks.L.hook_resid_post",
               "prompts start with <|endoftext|>, as TransformerLens prepends BOS"))


test_hook_reference = claim("patching.hook-reference", reads="seed_hook_reference", readout=readouts.hook_reference,
    kind="anchor", section="code cell", needs="hub",
    statement="nnsight's patched logits are torch.equal to a plain forward-hook implementation's.",
    headline="{equal}/{n} patched logits torch.equal",
    published={}, provenance="issue: an independent reference for the nnsight patches",
    criterion=Recorded(), holds=Holds(Every("equal")))


test_transformerlens_crosscheck = claim("patching.transformerlens-crosscheck", reads="seed_transformerlens",
    readout=attributes("max_abs_logit_diff"),
    kind="anchor", section="code cell", needs="hub",
    statement="TransformerLens' run_with_hooks patch agrees with ours within float tolerance.",
    headline="max |Δlogit| {max_abs_logit_diff:.2g}",
    published={"max_abs_logit_diff": 1e-3},
    provenance="issue: optional cross-check against the seed's own library; the bound is the "
               "suite's float tolerance for two float32 implementations of one patch",
    criterion=AtMost("max_abs_logit_diff"),
    decisions=("compared with unfolded LayerNorm (from_pretrained_no_processing), on the "
               "final-position logits, TransformerLens converting our GPT-2 weights",))


test_minimal_pair_behaviour = claim("patching.minimal-pair-behaviour", reads="seed_behaviour",
    readout=attributes("clean_top1", "corrupted_top1", "clean_logit_diff", "corrupted_logit_diff"),
    section="code cell", needs="hub",
    statement="What the model predicts after 'John gave the book to' and 'Mary gave the book to'.",
    headline="top-1 '{clean_top1}' clean, '{corrupted_top1}' corrupted",
    published={"clean_top1": " Mary", "corrupted_top1": " John"},
    provenance="the seed's comments: '# expect \"Mary\"' and '# expect \"John\"'",
    criterion=all_of(Exact("clean_top1"), Exact("corrupted_top1")), tolerance=FLOAT, **ROUNDED,
    decisions=("the seed's expectations are judged as stated; the clean prompt never mentions "
               "Mary, so nothing in context supports them",),
    null=Null({"corrupted_top1": AsMeasured("clean_top1")},
              why="if the prompt's first name made no difference, both prompts would "
                  "predict the same next token"))


test_layer_flip = claim("patching.layer-flip", reads=("seed_layer_flip", "seed_sweep"), readout=readouts.layer_flip,
    section="code cell", needs="hub",
    statement="Patching layer {layer}'s residual at the positions where the prompts differ moves the prediction toward the clean run's answer.",
    headline="layer {layer}: {normalised:.2f} of the way back to clean (moves toward clean: {moves_toward_clean})",
    published={"layer": 9, "moves_toward_clean": True},
    provenance=SEED + ": 'check whether the output shifts back toward the clean answer'",
    criterion=Exact("moves_toward_clean"), tolerance=FLOAT, **ROUNDED,
    decisions=("positions = where the two prompts' tokens differ (the name), the only patch "
               "that can locate anything: a whole-stream patch is an identity",
               "'toward the clean answer' = the logit difference logit(' Mary') − logit(' John') "
               "rises above the corrupted run's",
               "the layer is the experiment's input, recorded, never judged",
               "the organism patches its layer at the same relative depth, keeping at least "
               "one block after it as layer 9 of 12 keeps two (profile rule): patching its last "
               "block at the name's position cannot reach the final position's logits",
               "the published finding is one sign, so a model without the mechanism passes it "
               "about half the time (seeded random GPT-2 weights can read replicated: "
               "tests/integration/test_replicate_on_gpt2.py); the sweep's map says more"),
    null=Null({"moves_toward_clean": False, "normalised": 0.0},
              why="a patch that does nothing leaves the logit difference at the corrupted "
                  "run's, so it does not rise above it (normalised 0)"))


test_ioi_pair = claim("patching.ioi-pair", reads=("ioi_behaviour", "ioi_sweep"), readout=readouts.ioi_pair,
    kind="measurement", section="issue: corrected pair", needs="hub",
    statement="With the name in context ('When Mary and John went to the store, John gave the book to'), the layer × position patching map.",
    headline="top-1 '{clean_top1}' clean, '{corrupted_top1}' corrupted; logit diff {clean_logit_diff:+.2f} vs {corrupted_logit_diff:+.2f}",
    published={}, provenance="not in the seed: the corrected minimal pair the issue asks for",
    criterion=Recorded(), tolerance=FLOAT, **ROUNDED)
