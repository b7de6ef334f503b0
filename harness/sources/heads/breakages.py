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
)


def checks(model: Loaded, sizes) -> Checks:
    """§1's reference forward and edit receipts on opening family 0, and §4's foreign-bank
    crossing on main family 0, on the module objects imported now, at the profile's anchor
    blocks."""
    from harness.sources.heads.anchors import groups, machinery
    from harness.sources.heads.task import problem_sets, single_token_filter

    sets = problem_sets(single_token_filter(model.tok))
    family = sets.opening[0]
    return {
        "heads.reference-forward": lambda: machinery.reference_equality(
            model, family, sizes.anchor_blocks).failed,
        "heads.edit-receipts": lambda: machinery.edit_receipts(
            model, family, sizes.anchor_blocks).failed,
        "heads.kv-groups": lambda: groups.kv_groups(model, sets.main[0], sizes.anchor_blocks).failed,
    }
