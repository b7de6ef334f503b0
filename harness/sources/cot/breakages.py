"""Seed 000's breakage catalogue (harness.catalogue): edits of the decode-loop interventions
(§6's bump and noise, §7's vector writes), of the studies (§1–§5's problem set, filter, windows,
scoring and splices; §7's screen and random control), of their readouts and of fast mode's batched
rows that its anchors must catch, and the anchors run after each."""
from __future__ import annotations

from dataclasses import replace

from harness.anchor_checks import Checked
from harness.breakage_edit import Breakage, Part
from harness.sources.cot.batched_rows import TOKENS
from harness.sources.cot.reference_patching import SCREEN_TOKENS
from harness.sources.cot.sizes import CotSizes

D, P = "harness.sources.cot.decode", "harness.sources.cot.patching"
C, N = "harness.sources.cot.continuations", "harness.sources.cot.noise"
M = "harness.sources.cot.mistakes"
R = "harness.sources.cot.runner"
ROWS_CHECKED = 6  # problems in the rows checks' baseline: prompts of several lengths
PAIRS_CHECKED = 2  # §7 pairs the catalogue screens and continues
# The reference checks' problems, the decode cap their traces close within, the tokens each
# forced answer decodes, and §3's continuations.
REFERENCE_PROBLEMS, REFERENCE_CAP, REFERENCE_FORCED, SPLICE_TOKENS = 3, 156, 4, 24
DONOR_CAP = 80  # the tokens §7's donors decode: the organism's state their product by the 70th
F = "harness.sources.cot.forcing"
T = "harness.sources.cot.traces"
SCORED = "control, corrupted = answers[:len(usable)], answers[len(usable):]"
RANDOM_SEEDS = "[random_control(p, layer, seed=i) for i, p in enumerate(ps)]"
NOISE_WRITE = "out_now[r, -1, :] += onto(noise, out_now)"
VECTOR_WRITE = "out_now[:, -1, :] = onto(torch.stack([vectors[i][step] for i in rows]), out_now)"

BREAKAGES = (
    Breakage("§6 bump at every step", "wrong step", D,
             "if patch_step is not None and step == patch_step:", "if patch_step is not None:"),
    Breakage("§6 bump one step late", "wrong step", D,
             "if patch_step is not None and step == patch_step:",
             "if patch_step is not None and step == patch_step + 1:"),
    Breakage("§6 bump of zero size", "zero size", D, "bump[0] = FIRE_BUMP", "bump[0] = 0.0"),
    # Issue 46: the audit reads dimension 0 only; the bump's declared site sees the rest.
    Breakage("§6 bump spills onto dimension 1", "wrong site", D, "bump[0] = FIRE_BUMP",
             "bump[:2] = FIRE_BUMP"),
    Breakage("§6 noise of zero size", "zero size", N, NOISE_WRITE,
             "out_now[r, -1, :] += onto(noise * 0, out_now)"),
    Breakage("§6 noise at every step", "wrong step", N,
             "if arms[i][0] <= step <= arms[i][1]:", "if True:"),
    Breakage("§6 noise at the first position", "wrong position", N, NOISE_WRITE,
             "out_now[r, 0, :] += onto(noise, out_now)"),
    Breakage("§6 noise one layer early", "wrong layer", N,
             "layer = runner.layers[runner.sizes.anchor_layer]\n\n    def add_noise",
             "layer = runner.layers[runner.sizes.anchor_layer - 1]\n\n    def add_noise"),
    Breakage("§7 vector write writes nothing", "write nothing", P, VECTOR_WRITE,
             "_ = [vectors[i][step] for i in rows]"),
    Breakage("§7 vector write skips the prefill step", "wrong step", P, "if step < k:",
             "if 0 < step < k:"),
    Breakage("§7 vector write of the next step's vector", "wrong step", P, VECTOR_WRITE,
             "out_now[:, -1, :] = onto(torch.stack([vectors[i][(step + 1) % k] for i in rows]), out_now)"),
    Breakage("§7 vector write one layer early", "wrong layer", P,
             "k, target = vectors[0].shape[0], runner.layers[layer]",
             "k, target = vectors[0].shape[0], runner.layers[layer - 1]"),
    Breakage("§7 vector write at the first position", "wrong position", P, VECTOR_WRITE,
             "out_now[:, 0, :] = onto(torch.stack([vectors[i][step] for i in rows]), out_now)"),
    Breakage("§6 noise drawn from another seed", "wrong seed", N,
             'g = torch.Generator(device="cpu").manual_seed(seed)\n    draw',
             'g = torch.Generator(device="cpu").manual_seed(seed + 1)\n    draw', part=Part.STUDY),
    Breakage("§6 noise at half its scale", "wrong scale", N,
             "return draw.to(runner.dtype) * runner.sizes.noise_scale",
             "return draw.to(runner.dtype) * runner.sizes.noise_scale / 2", part=Part.STUDY),
    Breakage("fast mode maps its batched rows back reversed", "wrong row", R,
             "for i, ids in zip(rows, decoded):", "for i, ids in zip(rows[::-1], decoded):",
             part=Part.BATCHING),
    Breakage("a decoded row is cut one column into the prompt", "wrong position", R,
             "return [self.until_end(row[width:].tolist()) for row in ids]",
             "return [self.until_end(row[width - 1:].tolist()) for row in ids]", part=Part.READOUT),
    Breakage("fast mode maps its forced rows back reversed", "wrong row", R,
             "zip(full, self.generate_many(full, self.sizes.forced_tokens, what))",
             "zip(full, self.generate_many(full, self.sizes.forced_tokens, what)[::-1])",
             part=Part.BATCHING),
    Breakage("§4/§5 controls read from the corrupted rows", "wrong row", F, SCORED,
             "corrupted, control = answers[:len(usable)], answers[len(usable):]",
             part=Part.READOUT),
    Breakage("§7 patched rows read back reversed", "wrong row", P,
             "zip(prefixes, outs, vectors)", "zip(prefixes, outs[::-1], vectors)",
             part=Part.BATCHING),
    Breakage("§7 screen stops a layer short", "coverage", P,
             "layers = runner.sizes.screen_layers\n    rows = {",
             "layers = runner.sizes.screen_layers[:-1]\n    rows = {", part=Part.STUDY),
    Breakage("§7 random control drawn from another seed", "wrong seed", C, RANDOM_SEEDS,
             "[random_control(p, layer, seed=i + 1) for i, p in enumerate(ps)]",
             part=Part.STUDY),
    Breakage("§7 random control at half its scale", "wrong scale", C,
             "* (donor - own).norm(dim=-1, keepdim=True)\n",
             "* (donor - own).norm(dim=-1, keepdim=True) / 2\n", part=Part.STUDY),
    Breakage("§7 donor residuals read from the recipient's run", "wrong source", P,
             "span, residuals(runner, pid, gen, span[0], layers),",
             "span, residuals(runner, t.pid, t.gen, t.span[0], layers),", part=Part.STUDY),
    Breakage("§7 residuals read one step late", "wrong position", P,
             "    pos = len(pid) + j0 - 1\n", "    pos = len(pid) + j0\n", part=Part.STUDY),
    # issue 49: §3's and §7's studies computing another quantity, caught by the reference anchors
    Breakage("§3 corruption spliced one token late", "wrong position", M,
             "t.gen[:t.span[0]] + runner.ids_of(str(t.cprod))",
             "t.gen[:t.span[0] + 1] + runner.ids_of(str(t.cprod))", part=Part.STUDY),
    Breakage("§3 splice control compared with the baseline from its product's first token",
             "wrong baseline", M, "r == t.gen[t.span[1]:t.span[1] + n]",
             "r == t.gen[t.span[0]:t.span[0] + n]", part=Part.STUDY),
    Breakage("§3 baseline cue window one token short", "off-by-one window", M,
             "t.gen[t.span[0]:t.span[0] + w]", "t.gen[t.span[0]:t.span[0] + w - 1]",
             part=Part.STUDY),
    Breakage("§7 pairs one short", "problem set one short", P, "usable[:runner.sizes.pairs]",
             "usable[:runner.sizes.pairs - 1]", part=Part.STUDY),
    Breakage("§7 screen writes the recipient's own residuals", "wrong run", P,
             "[p.donor_h[layer] for p in ps], 6)", "[p.self_h[layer] for p in ps], 6)",
             part=Part.STUDY),
    Breakage("§7 continuations read the recipient's product as the donor's", "wrong run", C,
             "says_donor=count_value(text, p.donor_product) > 0",
             "says_donor=count_value(text, p.recipient.prod) > 0", part=Part.READOUT),
    Breakage("§7 random control ignores its seed", "wrong seed", C,
             "g = torch.Generator(device=p.self_h[layer].device).manual_seed(seed)",
             "g = torch.Generator(device=p.self_h[layer].device).manual_seed(0)",
             part=Part.STUDY),
    # issue 49: §1–§5's studies computing the wrong quantity, for the reference anchors
    Breakage("§1 problem set one short", "problem set one short", "harness.sources.cot.steps",
             "PROBLEMS[:run.sizes.problems]", "PROBLEMS[:run.sizes.problems - 1]",
             part=Part.STUDY),
    Breakage("§1 filter keeps every closed trace, whatever it answers", "wrong filter", T,
             "if t.close is not None and t.ans == t.true]", "if t.close is not None]",
             part=Part.STUDY),
    Breakage("§2 truncation window one token short", "off-by-one window", T,
             "t.gen[:int(round(f * t.close))]", "t.gen[:int(round(f * (t.close - 1)))]",
             part=Part.STUDY),
    Breakage("§2 curve scored on the baseline run, not the forced answers", "wrong run", T,
             "sum(a[i] == t.true for a, t in zip(answers, usable))",
             "sum(t.ans == t.true for a, t in zip(answers, usable))", part=Part.STUDY),
    Breakage("§4 last answer corrupted one token late", "wrong position", F,
             "heads.append(t.pid + t.gen[:span[0]])", "heads.append(t.pid + t.gen[:span[0] + 1])",
             part=Part.STUDY),
)


def scripted(sizes: CotSizes) -> CotSizes:
    """The rows anchors' and §7 reference's studies: the first ROWS_CHECKED problems' baselines
    decoded TOKENS tokens, too few to close a trace, so every later step runs on their scripted
    traces (forced, as on random weights); §7 on PAIRS_CHECKED pairs, their donors decoded to
    DONOR_CAP, each continued as far as the screen reads."""
    return replace(sizes, problems=ROWS_CHECKED, baseline_cap=TOKENS, pairs=PAIRS_CHECKED,
                   donor_cap=DONOR_CAP, continuation_cap=SCREEN_TOKENS)


def decoded(sizes: CotSizes) -> CotSizes:
    """§1–§5's references: the organism's traces of its first REFERENCE_PROBLEMS problems, cut at
    REFERENCE_CAP tokens, where all three close and one loses a digit of its boxed answer, so
    §1's filter keeps two and drops one (a scripted trace is too regular for §3's splices and
    cues to differ); a forced answer read from its digits and brace; §3 continued far enough to
    restate a product (SPLICE_TOKENS do)."""
    return replace(sizes, problems=REFERENCE_PROBLEMS, baseline_cap=REFERENCE_CAP,
                   forced_tokens=REFERENCE_FORCED, splice_tokens=SPLICE_TOKENS,
                   inject_cap=SPLICE_TOKENS)


# The anchors whose checks run after each breakage (harness.anchor_checks), in the order tried:
# §6's bump (its audit, then its declared site), noise (and its identity) and §7's vector writes on the first
# problems' prompts, faithful mode's decode loop; then, in
# fast mode only, the rows anchors and §7's readbacks (what they read back is a batch's), and the
# reference anchors (their problems decoded in one batch, not one by one; the baseline's, which
# decodes the most again, last).
ANCHORS = (
    Checked(("cot.fire-once", "cot.bump-fires-once", "cot.noise-fires-once",
             "cot.noise-identity", "cot.vector-write-fires-once"), fast=False),
    Checked(("cot.batched-rows", "cot.cut-probe-rows", "cot.screen-coverage",
             "cot.random-control-redrawn", "cot.residual-sources", "cot.patch-rows",
             "cot.patching-reference"), scripted, faithful=False, forced_rows=ROWS_CHECKED),
    Checked(("cot.splice-reference", "cot.mistake-reference", "cot.usable-reference",
             "cot.spanned-reference", "cot.restatements-reference", "cot.early-reference",
             "cot.last-answer-reference", "cot.full-corruption-reference",
             "cot.cut-probe-reference", "cot.preference-reference", "cot.baseline-reference"),
            decoded, faithful=False),
)
