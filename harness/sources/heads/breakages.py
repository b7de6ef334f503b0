"""Seed 001's breakage catalogue (harness.catalogue): edits of the residual and head edits that
its receipts and reference forward must catch, an edit of §4's key/value grouping that the
foreign-bank crossing must catch, edits of §2–§6's studies and of the readouts of what a forward
returned that the readback anchors must catch, edits of the studies' arithmetic that only the
plain reference's anchors catch (issue 49), and the anchors run after each."""
from __future__ import annotations

from dataclasses import replace

from harness.anchor_checks import Checked
from harness.breakage_edit import Breakage, Part
from harness.sources.heads.compiled import RETRIEVAL
from harness.sources.heads.sizes import HeadsSizes

F = "harness.sources.heads.forward"
RESIDUAL_WRITE = "changed[:, position] = residual[0].value.to(changed)"
HEAD_WRITE = "changed[:, position, p.head] = p.value.to(changed)"
OBS = "harness.sources.heads.observations"
SCREENS = "harness.sources.heads.screens"
CROSSINGS = "harness.sources.heads.crossings"
GRID = "harness.sources.heads.grid"
SWEEP = "harness.sources.heads.sweep"
GROUP = "group = head // (attention.shape[1] // values.shape[2])"

BREAKAGES = (
    Breakage("residual edit writes nothing", "write nothing", F, RESIDUAL_WRITE,
             "_ = residual[0].value"),
    Breakage("residual edit one position early", "wrong position", F, RESIDUAL_WRITE,
             "changed[:, position - 1] = residual[0].value.to(changed)"),
    Breakage("residual edit of zero size", "zero size", F, RESIDUAL_WRITE,
             "changed[:, position] = 0 * residual[0].value.to(changed)"),
    Breakage("head edit writes nothing", "write nothing", F, HEAD_WRITE, "_ = p.value"),
    Breakage("head edit onto the next head", "wrong head", F, HEAD_WRITE,
             "changed[:, position, (p.head + 1) % g.n_heads] = p.value.to(changed)"),
    Breakage("head edit one position early", "wrong position", F, HEAD_WRITE,
             "changed[:, position - 1, p.head] = p.value.to(changed)"),
    # Issue 46: the edit's own constructor names another head; the run, its receipts and the
    # reference forward all follow the patch, so only the declared head sites see it.
    Breakage("head edit built for the partner head", "wrong head", "harness.sources.heads.patches",
             'return Patch(block, "z", value, head)', 'return Patch(block, "z", value, head ^ 1)'),
    Breakage("residual edit one block early", "wrong layer", F,
             'residual = [p for p in patches if p.layer == b and p.kind == "r"]',
             'residual = [p for p in patches if p.layer == b + 1 and p.kind == "r"]'),
    # §4: the donor bank goes into KV group h % n_kv_heads (tiling) instead of transformers'
    # h // n_rep; heads.av-identity's own-values recomposition cannot see it.
    Breakage("value crossing into the wrong KV group", "wrong KV group", OBS, GROUP,
             "group = head % values.shape[2]", part=Part.WRITE),
    # §2's screens as read back: the readout of a label's logit, the loss's sign, the ranking.
    Breakage("a label's logit read from the next candidate", "wrong row", OBS,
             "return self.candidate_logits[self.candidate_letters.index(self.roles[role])]",
             "return self.candidate_logits[(self.candidate_letters.index(self.roles[role]) + 1) "
             "% len(self.candidate_letters)]", part=Part.READOUT),
    Breakage("the screen's loss is after minus before", "wrong sign", SCREENS,
             'before.probability("L") - after.probability("L"),',
             'after.probability("L") - before.probability("L"),', part=Part.STUDY),
    Breakage("the sweep skips the last block", "coverage", OBS,
             "self.swept_blocks = every(swept_blocks, self.geometry.n_blocks)",
             "self.swept_blocks = every(swept_blocks, self.geometry.n_blocks)[:-1]",
             part=Part.STUDY),
    Breakage("screens rank by the smallest loss", "wrong order", SCREENS,
             'return sorted(s, key=lambda h: (-s[h]["loss_pL"].mean, h))',
             'return sorted(s, key=lambda h: (s[h]["loss_pL"].mean, h))', part=Part.STUDY),
    Breakage("the screens skip the last head", "coverage", OBS,
             "self.screened_heads = every(screened_heads, self.geometry.n_heads)",
             "self.screened_heads = every(screened_heads, self.geometry.n_heads)[:-1]",
             part=Part.STUDY),
    # §3–§6's studies: heads.screen-readback and heads.crossing-readback.
    Breakage("the main screen deletes at the retrieval block", "wrong layer", SCREENS,
             "screen = Screen(next_block)", "screen = Screen(retrieval_block)", part=Part.STUDY),
    Breakage("the main screen's O deletions run on the R prompt", "wrong context", SCREENS,
             'screen_heads(lab, family, "O", screen, "O",\n                                       (native',
             'screen_heads(lab, family, "R", screen, "O",\n                                       (native',
             part=Part.STUDY),
    Breakage("the first crossing composes the next head's message", "wrong head", CROSSINGS,
             "compose_head_message(ordinary.attention, ordinary.values, donor.values, head,",
             "compose_head_message(ordinary.attention, ordinary.values, donor.values, "
             "(head + 1) % ordinary.attention.shape[1],", part=Part.STUDY),
    Breakage("the challenged screen deletes without the crossed message", "write nothing",
             "harness.sources.heads.challenged_screen",
             "[head_output_patch(block, head, message)])", "[])", part=Part.STUDY),
    Breakage("content effects' margin is identity minus crossed", "wrong sign",
             "harness.sources.heads.content_effects", '"margin": lab.paired(od, oo, m)',
             '"margin": lab.paired(oo, od, m)', part=Part.STUDY),
    Breakage("the grid's recompute-cross cell reads the first head's crossing", "wrong cell",
             GRID, '("normal", "cross"): crossed(b2, "OD")', '("normal", "cross"): crossed(b1, "OD")',
             part=Part.STUDY),
    Breakage("the grid's zero and cross treatments swapped", "wrong cell", GRID,
             'value = torch.zeros_like(message) if treatment == "zero" else message',
             'value = message if treatment == "zero" else torch.zeros_like(message)',
             part=Part.STUDY),
    Breakage("the joint crossing summarises p(L)", "wrong label", GRID,
             'summaries = {c: bootstrap_mean(lab.values(c, p_of("C")), CONTENT_SEED)',
             'summaries = {c: bootstrap_mean(lab.values(c, p_of("L")), CONTENT_SEED)',
             part=Part.STUDY),
    # Readouts of what a forward returned: heads.sweep-readback and heads.crossing-readback.
    Breakage("every record reads the previous position's logits", "wrong position", OBS,
             "logits = run.logits[0, -1]", "logits = run.logits[0, -2]", part=Part.READOUT),
    Breakage("§4's rows read the margin as L minus C", "wrong sign", CROSSINGS,
             'obs.margin("C", "L"),', 'obs.margin("L", "C"),', part=Part.READOUT),
    Breakage("§4's cohort p(C) reads p(L)", "wrong label", CROSSINGS,
             'float(lab.values(condition, p_of("C")).mean()),',
             'float(lab.values(condition, p_of("L")).mean()),', part=Part.READOUT),
    # Issue 49: arithmetic pointed at the wrong quantity, which no readback recomputes: the
    # heads.*-reference anchors (on the catalogue's narrow families, and the sweep's on wide ones).
    Breakage("the grid's cross-minus-zero subtracts the reverse cell", "wrong control", GRID,
             'lab.paired(conditions["cross", "cross"], conditions["cross", "zero"], p_C),',
             'lab.paired(conditions["cross", "cross"], conditions["zero", "cross"], p_C),',
             part=Part.STUDY),
    Breakage("the main screen's H takes D's residual from the next block", "wrong block", SCREENS,
             'donor = native["D"].activations[retrieval_block].residual_before[:, -1]',
             'donor = native["D"].activations[next_block].residual_before[:, -1]',
             part=Part.STUDY),
    Breakage("the joint crossing's C wins skip the first family", "one short", GRID,
             'wins = sum(lab.observation(f, BOTH).predicts("C") for f in lab.main)',
             'wins = sum(lab.observation(f, BOTH).predicts("C") for f in lab.main[1:])',
             part=Part.STUDY),
    Breakage("the grid's cross-minus-zero subtracts the first crossing alone", "wrong control",
             GRID, 'lab.paired(conditions["cross", "cross"], conditions["cross", "zero"], p_C),',
             'lab.paired(conditions["cross", "cross"], conditions["cross", "normal"], p_C),',
             part=Part.STUDY),
    Breakage("the sweep summarises its first family", "aggregation", SWEEP,
             "bootstrap_mean([o.probability(role) for o in rows[b]], RESIDUAL_SEED)",
             "bootstrap_mean([rows[b][0].probability(role) for o in rows[b]], RESIDUAL_SEED)",
             part=Part.STUDY),
    Breakage("the family bootstrap ignores its seed", "control ignoring its seed",
             "harness.sources.heads.bootstrap", "np.random.default_rng(seed)",
             "np.random.default_rng(0)", part=Part.STUDY),
)
# The heads the catalogue's screens delete, to keep its studies cheap: the first (where a tie
# would land, and the tiny profile's head for a tied challenged screen), the organism's planted
# retrieval head and the last of its 8.
SCREENED = (0, RETRIEVAL[1], 7)


def narrow(sizes: HeadsSizes) -> HeadsSizes:
    """The catalogue's study: opening and main family 0, screening SCREENED."""
    return replace(sizes, screen_heads=SCREENED, opening_families=1, main_families=1)


def wide(sizes: HeadsSizes) -> HeadsSizes:
    """§2's sweep on four opening families (and one main, unread): a summary over one family
    cannot tell a mean from any other aggregate of it, and below four a bootstrap's 2.5% quantile
    is the least family's value whatever its seed (all of n draws land on it with chance n^-n)."""
    return replace(narrow(sizes), opening_families=4)


# The anchors whose checks run after each breakage (harness.anchor_checks), in the order tried,
# each judged by its own holds on the declared steps: §1's reference forward, the head edits'
# declared sites (the first to see an edit built for another head) and §4's foreign-bank
# crossing, §2–§6's studies read back and counted, against the plain reference (the sweep on wide
# families), and §1's edit receipts last (every breakage they would catch fails an earlier check).
ANCHORS = (
    Checked(("heads.reference-forward", "heads.edits-fire-once", "heads.kv-groups",
             "heads.sweep-readback", "heads.screen-readback", "heads.crossing-readback", "heads.record-counts",
             "heads.opening-reference", "heads.main-screen-reference",
             "heads.native-answers-reference", "heads.first-crossing-reference",
             "heads.challenged-reference", "heads.content-reference", "heads.joint-reference",
             "heads.grid-reference", "heads.record-counts-reference"), narrow),
    Checked(("heads.sweep-reference",), wide),
    Checked(("heads.edit-receipts",), narrow),
)
