"""Seed 001's breakage catalogue (harness.catalogue): edits of the residual and head edits that
its receipts and reference forward must catch, an edit of §4's key/value grouping that the
foreign-bank crossing must catch, and the checks run after each."""
from __future__ import annotations

from harness.catalogue import Breakage, Checks, Part
from harness.models.loaded import Loaded

F = "harness.sources.heads.forward"
RESIDUAL_WRITE = "changed[:, position] = residual[0].value.to(changed)"
HEAD_WRITE = "changed[:, position, p.head] = p.value.to(changed)"
OBS = "harness.sources.heads.observations"
SCREENS = "harness.sources.heads.screens"
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
)


def checks(model: Loaded, sizes) -> Checks:
    """§1's reference forward and edit receipts on opening family 0, §4's foreign-bank crossing
    on main family 0, at the profile's anchor blocks, and §2's opening screen on the first two
    opening families read back, on the module objects imported now."""
    from harness.sources.heads import screens, sweep
    from harness.sources.heads.anchors import groups, machinery, readback
    from harness.sources.heads.observations import HeadsLab
    from harness.sources.heads.task import problem_sets, single_token_filter

    sets = problem_sets(single_token_filter(model.tok))
    family = sets.opening[0]

    def screens_read_back() -> list[str]:
        lab = HeadsLab(model, sets.opening[:2], sets.main[:1], sizes.sweep_blocks,
                       sizes.screen_heads)
        swept = sweep.residual_sweep(lab)
        declared = readback.declared_blocks(model, sizes.sweep_blocks)
        failed = readback.sweep_readback(model, lab, swept, declared).failed
        site = sweep.site_for(swept, lab.geometry.n_blocks, sizes.smoke_block)
        if failed or site is None:
            return failed or ["§2's rule chose no block to screen, so no screen can be read back"]
        opening = screens.opening_screen(lab, swept, site.block)
        return readback.screen_readback(model, opening.screen, lab.opening[0]).failed

    return {
        "heads.reference-forward": lambda: machinery.reference_equality(
            model, family, sizes.anchor_blocks).failed,
        "heads.edit-receipts": lambda: machinery.edit_receipts(
            model, family, sizes.anchor_blocks).failed,
        "heads.kv-groups": lambda: groups.kv_groups(model, sets.main[0], sizes.anchor_blocks).failed,
        "heads.sweep-readback, heads.screen-readback": screens_read_back,
    }
