"""Seed 003's breakage catalogue (harness.catalogue): edits of §4–§7's intervention code, its
studies' logic, their readouts and their batched rows, that its anchors must catch, and the
anchor checks run after each."""
from __future__ import annotations

from dataclasses import replace

from harness.anchor_checks import Checked
from harness.breakage_edit import Breakage, Part
from harness.sources.lookback.known_answers import few
from harness.sources.lookback.sizes import LookbackSizes

# §7's sizes (ranked): a held-in half of 16 rows, the first rank and rank 64.
LOW_RANK_ROWS, LOW_RANK_RANKS = 32, (1, 64)

INTERCHANGE, ANSWERS, LOW_RANK = ("harness.sources.lookback.interchange",
                                  "harness.sources.lookback.answers",
                                  "harness.sources.lookback.low_rank")
POSITIONS = "harness.sources.lookback.positions"
RUNNER, TASK = "harness.sources.lookback.runner", "harness.sources.lookback.task"
BARRIER_WRITE = 'layer_mod.output[:, dst_pos] = box["acts"]'
SOURCE_WRITE = "layer.output[:, dst] = cf_vals[index].to(layer.output.device)"
FREEZE_WRITE = "layer.output[:, drinks] = clean_vals[index].to(layer.output.device)"
LOW_RANK_WRITE = "layer_mod.output[:, state] = new[i:i + bs].to(layer_mod.output.device)"
READ_ONCE_WRITE = "layer_mod.output[:, dst_pos] = values.to(layer_mod.output.device)"
READ_ONCE_VALUE = "cf_vals[layer], top_only))"
READ_ONCE_TRACE = "with torch.no_grad(), runner.model.nn.trace(prompts, **LAST_LOGITS):"
READ_ONCE_SWAP = "src.append(read_layers(runner, cf, state_rev)[layer])"
SWAP_READ = "with tracer.invoke(cf):\n                h_src = layer_mod.output[:, state_rev]"
HELD_IN = "h_dst, h_src = swap_pairs(runner, rows[:half], layer, state, state_rev)"
SEEDED = 'generator=torch.Generator(device="cpu").manual_seed(seed)'
SCORE = "return round(sum(p == getattr(r, attr) for p, r in zip(preds, rows)) / len(rows), 4)"

BREAKAGES = (
    Breakage("§4 interchange writes nothing", "write nothing", INTERCHANGE, BARRIER_WRITE,
             '_ = box["acts"]'),
    Breakage("§4 sweep one layer early", "wrong layer", INTERCHANGE,
             "patched = interchange(runner, rows, chosen, src, dst)",
             "patched = interchange(runner, rows, [max(layer - 1, 0) for layer in chosen], "
             "src, dst)"),
    Breakage("§4 interchange one position early", "wrong position", INTERCHANGE, BARRIER_WRITE,
             'layer_mod.output[:, [p - 1 for p in dst_pos]] = box["acts"]'),
    Breakage("§4 interchange writes its own values", "write nothing", INTERCHANGE,
             'box["acts"] = layer_mod.output[:, src_pos]',
             'box["acts"] = layer_mod.output[:, dst_pos]'),
    # Fast mode's read-once path: one counterfactual read per chunk, written by clean-only forwards.
    Breakage("§4/§6/§7 fast mode's clean-only write writes nothing", "write nothing", INTERCHANGE,
             READ_ONCE_WRITE, "_ = values"),
    Breakage("§4/§6 fast mode writes the value read one layer deeper", "wrong layer", INTERCHANGE,
             READ_ONCE_VALUE, "cf_vals[min(layer + 1, len(cf_vals) - 1)], top_only))"),
    # Issue 46: the clean-only forward itself moves its rows, which the fire-once replay of the
    # same forward repeats; the identity anchors (the seed's self-patch, the derived ones) see it.
    Breakage("§4/§6/§7 fast mode's clean-only forward counts positions from one", "wrong position",
             INTERCHANGE, READ_ONCE_TRACE, READ_ONCE_TRACE.replace(
                 "trace(prompts, ", "trace(prompts, position_ids=torch.arange(1, len("
                 "runner.model.tok(prompts[0]).input_ids) + 1)[None], "), part=Part.BATCHING),
    Breakage("§4 drink positions one early", "wrong position", POSITIONS,
             "state = [lay.drinks[0], lay.after_drinks[0], lay.drinks[1], lay.after_drinks[1]]",
             "state = [lay.drinks[0] - 1, lay.after_drinks[0], lay.drinks[1] - 1, "
             "lay.after_drinks[1]]"),
    Breakage("§5 source swap writes nothing", "write nothing", INTERCHANGE, SOURCE_WRITE,
             "_ = cf_vals[index]"),
    Breakage("§5 source swap stops a layer short", "wrong layer", INTERCHANGE, "if index <= L:",
             "if index < L:"),
    Breakage("§5 source swap one position late", "wrong position", INTERCHANGE,
             "dst = lay.names + lay.objects", "dst = [p + 1 for p in lay.names + lay.objects]"),
    Breakage("§5 freeze writes nothing", "write nothing", INTERCHANGE, FREEZE_WRITE,
             "_ = clean_vals[index]"),
    Breakage("§6 answer patch at the previous position", "wrong position", ANSWERS,
             "src, dst = [-1], [-1]", "src, dst = [-2], [-2]"),
    Breakage("§6 answer sweep one layer late", "wrong layer", ANSWERS,
             "patched = interchange(runner, rows, chosen,",
             "patched = interchange(runner, rows, "
             "[min(layer + 1, runner.n_layers - 1) for layer in chosen],"),
    Breakage("§7 low-rank write of zero size", "zero size", LOW_RANK,
             "return h_dst + (delta @ basis.T @ basis).to(h_dst.dtype)",
             "return h_dst + (0 * delta @ basis.T @ basis).to(h_dst.dtype)"),
    Breakage("§7 low-rank writes nothing", "write nothing", LOW_RANK, LOW_RANK_WRITE,
             "_ = new[i:i + bs]"),
    # Choosing the subspace is a computation, not a write, so no fire-once anchor sees it; the
    # organism's planted ordering-ID direction does (lookback.low-rank's known answer).
    Breakage("§7 fitted basis takes the wrong singular vectors", "wrong row", LOW_RANK,
             "projected_answers(runner, held, layer, state, d_dst, d_src, vt[:k])",
             "projected_answers(runner, held, layer, state, d_dst, d_src, vt[1:k + 1])",
             part=Part.STUDY),
    Breakage("§7 low-rank writes one layer early", "wrong layer", LOW_RANK,
             "bs, layer_mod, lm_head = runner.sizes.interchange_batch, runner.layers[layer], runner.lm_head",
             "bs, layer_mod, lm_head = runner.sizes.interchange_batch, runner.layers[max(layer - 1, 0)], runner.lm_head"),
    # Studies: what a sweep covers, where a copied value comes from, the random control's draw.
    # The layers a sweep patches by default are seen by the readbacks' coverage alone: the
    # fire-once anchors and the known answers pass their layers explicitly.
    Breakage("§4/§6 default sweep stops a block short", "coverage", INTERCHANGE,
             "list(range(runner.n_layers) if chosen is None else chosen)",
             "list(range(runner.n_layers - 1) if chosen is None else chosen)", part=Part.STUDY),
    Breakage("§4 sweep stops a layer short", "coverage", INTERCHANGE,
             'progress(zip(chosen, patched), f"lookback §4 {name}")',
             'progress(zip(chosen[:-1], patched), f"lookback §4 {name}")', part=Part.STUDY),
    Breakage("§5 source sweep skips its last L", "coverage", INTERCHANGE,
             "for L in last_layers:", "for L in last_layers[:-1]:", part=Part.STUDY),
    # The fire-once anchor finds the counterfactual run by the prompts it read: none did.
    Breakage("§5 source values read from the clean prompts", "wrong source", INTERCHANGE,
             "cf_vals = read_layers(runner, [r.cf for r in chunk], src)",
             "cf_vals = read_layers(runner, [r.clean for r in chunk], src)", part=Part.STUDY),
    # The low-rank fire-once anchor draws the register's control itself.
    Breakage("§7 random control drawn from another seed", "wrong seed", LOW_RANK,
             'generator=torch.Generator(device="cpu").manual_seed(seed)',
             'generator=torch.Generator(device="cpu").manual_seed(seed + 1)', part=Part.STUDY),
    Breakage("§7 random controls' seeds shifted", "wrong seed", LOW_RANK,
             "RANDOM_BASIS_SEEDS = (0, 1, 2)", "RANDOM_BASIS_SEEDS = (1, 2, 3)", part=Part.STUDY),
    Breakage("§7 random control not orthonormalised", "wrong basis", LOW_RANK,
             "torch.linalg.qr(draw)[0].T", "draw.T", part=Part.STUDY),
    # Readouts: each curve re-counted from the answers the sweep recorded (the readbacks).
    Breakage("§4 IIA scored against the clean answer", "wrong target", INTERCHANGE,
             'iia.append(score(preds, rows, "target"))',
             'iia.append(score(preds, rows, "clean_ans"))', part=Part.READOUT),
    Breakage("§6 pointer scored against the payload", "wrong target", ANSWERS,
             'pointer.append(score(preds, rows, "target"))',
             'pointer.append(score(preds, rows, "payload"))', part=Part.READOUT),
    Breakage("§5 IIA scored against the counterfactual's answer", "wrong target", INTERCHANGE,
             '[score(preds[L], rows, "target") for L in covered]',
             '[score(preds[L], rows, "cf_ans") for L in covered]', part=Part.READOUT),
    # Batching: a batched forward's rows mapped to the wrong rows.
    Breakage("§4 interchange reads its clean rows' answers in reverse", "wrong row", INTERCHANGE,
             "final = lm_head.output[:, -1].save()",
             "final = lm_head.output.flip(0)[:, -1].save()", part=Part.BATCHING),
    Breakage("§4 interchange writes each counterfactual row onto another clean row", "wrong row",
             INTERCHANGE, BARRIER_WRITE, 'layer_mod.output[:, dst_pos] = box["acts"].flip(0)',
             part=Part.BATCHING),
    # The positional anchor read h_src from the same reversed rows, so this passed it.
    Breakage("§7 swap pairs read the counterfactual rows in reverse", "wrong row", LOW_RANK,
             SWAP_READ, SWAP_READ.replace("invoke(cf)", "invoke(cf[::-1])"), part=Part.BATCHING),
    Breakage("§4/§6 fast mode writes each counterfactual row onto another clean row", "wrong row",
             INTERCHANGE, READ_ONCE_VALUE, "cf_vals[layer].flip(0), top_only))",
             part=Part.BATCHING),
    Breakage("§7 fast mode's swap pairs read the counterfactual rows in reverse", "wrong row",
             LOW_RANK, READ_ONCE_SWAP, READ_ONCE_SWAP.replace("cf,", "cf[::-1],"),
             part=Part.BATCHING),
    Breakage("§5 source sweep reads its rows' answers in reverse", "wrong row", INTERCHANGE,
             "logits = lm_head.output[:, -1]\n", "logits = lm_head.output.flip(0)[:, -1]\n",
             part=Part.BATCHING),
    # §2's predictions (and §4's error filter) and §7's writes, each re-run a few rows alone.
    Breakage("§2 predictions read each batch's rows in reverse", "wrong row", RUNNER,
             "top = lm_head.output[:, -1].argmax(-1).save()",
             "top = lm_head.output.flip(0)[:, -1].argmax(-1).save()", part=Part.BATCHING),
    Breakage("§7 low-rank write reads its rows' answers in reverse", "wrong row", LOW_RANK,
             "final = lm_head.output[:, -1].save()",
             "final = lm_head.output.flip(0)[:, -1].save()", part=Part.BATCHING),
    # What a rate counts: the direction anchors (lookback.*-clean-answered) read it.
    Breakage("§4–§6 target is the clean answer", "wrong target", TASK, "target=s[1 - r],",
             "target=s[r],", part=Part.READOUT),
    Breakage("§6 payload is the counterfactual's other drink", "wrong target", TASK,
             "payload=t[1 - r] if payload else None", "payload=t[r] if payload else None",
             part=Part.READOUT),
    # Issue 49: a study computing the wrong quantity with sound machinery (the wrong block, a
    # leaked fit, a control that ignores its seed, a rate over a window one short, a problem set
    # one short, the wrong cell). No fire-once or readback anchor sees them (they share the
    # study's rows, basis, seeds and scoring), and on the organism none moves a curve its known
    # answers read: the reference anchors (against_reference*.py) catch them.
    Breakage("§7 basis fitted on residuals read a block early", "wrong block", LOW_RANK, HELD_IN,
             HELD_IN.replace("layer,", "layer - 1,"), part=Part.STUDY),
    Breakage("§7 fitted basis leaks its held-out half", "leaked fit", LOW_RANK, HELD_IN,
             HELD_IN.replace("rows[:half]", "rows"), part=Part.STUDY),
    Breakage("§7 random control ignores its seed", "seed ignored", LOW_RANK, SEEDED,
             SEEDED.replace("(seed)", "(RANDOM_BASIS_SEEDS[0])"), part=Part.STUDY),
    Breakage("§4–§7 rates score a window one short of their rows", "window one short", RUNNER,
             SCORE, SCORE.replace("zip(preds, rows)) / len(rows)",
                                  "zip(preds[:-1], rows[:-1])) / len(rows[:-1])"),
             part=Part.READOUT),
    Breakage("§4 binding set one short", "problem set one short", TASK,
             "BINDING_SAMPLES = Samples(120, 7)", "BINDING_SAMPLES = Samples(119, 7)",
             part=Part.STUDY),
    Breakage("§4 peak layer the last of equals", "wrong cell", INTERCHANGE,
             "max(range(len(self.iia)), key=lambda i: self.iia[i])",
             "max(range(len(self.iia)), key=lambda i: (self.iia[i], i))", part=Part.STUDY),
)


def whole(sizes: LookbackSizes) -> LookbackSizes:
    """§4's error filter on every row of its set, so that a set one short shows."""
    return replace(sizes, sample_cap=None)


def ranked(sizes: LookbackSizes) -> LookbackSizes:
    """§7 on enough rows that its held-in half fills rank 64, where the organism's random
    controls answer by their seed; the first rank shows the fitted basis's own direction."""
    return replace(sizes, sample_cap=LOW_RANK_ROWS, low_rank_ranks=LOW_RANK_RANKS)


# The anchors whose checks run after each breakage (harness.anchor_checks), in the order tried:
# each judged by its own holds on the declared steps. Every lookback step runs at the batches of
# the profile's sizes, batched in fast mode, so the fire-once, identity and readback anchors, which
# read back what a batch wrote, run in fast mode too; the references compare a study's values,
# which fast mode must leave as they are (the meta tests' paired runs), in faithful mode only.
ANCHORS = (
    Checked(("lookback.interchange-fires-once", "lookback.source-swap-fires-once",
             "lookback.freeze-fires-once", "lookback.answer-fires-once",
             "lookback.low-rank-fires-once", "lookback.self-patch-identity",
             "lookback.same-position-identity", "lookback.same-position-rows-alone",
             "lookback.answer-identity",
             "lookback.binding-readback", "lookback.source-readback",
             "lookback.answer-readback", "lookback.predict-readback",
             "lookback.filter-readback", "lookback.binding-clean-answered",
             "lookback.answer-clean-answered", "lookback.low-rank-readback"), few),
    Checked(("lookback.low-rank-reference",), ranked, fast=False),
    Checked(("lookback.behaviour-reference", "lookback.visibility-reference"), few, fast=False),
    Checked(("lookback.binding-filter-reference",), whole, fast=False),
    Checked(("lookback.source-filter-reference", "lookback.answer-filter-reference",
             "lookback.reversed-reference", "lookback.same-position-reference",
             "lookback.opaque-reference", "lookback.source-freeze-reference",
             "lookback.source-plain-reference", "lookback.answer-reference"), few, fast=False),
)
