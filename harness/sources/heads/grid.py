"""Seed 001 §6: both crossed messages together, and the 3 × 3 recompute / zero / cross grid."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import torch

from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.challenged_screen import ChallengedScreen
from harness.sources.heads.content_effects import ContentEffects
from harness.sources.heads.crossings import ConditionRow, FirstCrossing, crossed
from harness.sources.heads.patches import head_output_patch
from harness.sources.heads.observations import CONTENT_SEED, HeadsLab, answer_roles, margin_of, p_of
from harness.sources.heads.screens import MainScreen

BOTH = "followup.both.OD"
TREATMENTS = ("normal", "zero", "cross")


@dataclass
class JointCrossing:
    """§6: both crossed messages supplied together."""

    summaries: dict[str, BootstrapMean]     # condition → mean p(C)
    c_wins: int
    n: int
    example: list[ConditionRow]
    example_roles: dict[str, str]
    condition: str = BOTH


def joint_crossing(lab: HeadsLab, first: FirstCrossing, content: ContentEffects) -> JointCrossing:
    """§6: insert both crossed Z slices (each from unmodified O/D) into one O run."""
    for family in lab.main:
        patches = [head_output_patch(b, h, content.messages[family.family_id, b])
                   for b, h in content.sites.items()]
        run, _ = lab.run_case(family, "O", BOTH, patches, capture_blocks=first.blocks)
        lab.check_previous_token(f"main:{family.family_id}:{BOTH}", run,
                                 lab.native(family, first.blocks)["O"])
    b1, b2 = content.sites
    conditions = (crossed(b1, "OD"), crossed(b2, "OD"), BOTH)
    summaries = {c: bootstrap_mean(lab.values(c, p_of("C")), CONTENT_SEED) for c in conditions}
    wins = sum(lab.observation(f, BOTH).predicts("C") for f in lab.main)
    example = [ConditionRow.of(lab.observation(lab.main[0], c)) for c in ("native.O", *conditions)]
    return JointCrossing(summaries, int(wins), len(lab.main), example,
                         answer_roles(lab.main[0], "main"))


@dataclass
class Grid:
    """§6: recompute / zero / cross at the two selected heads, 3 × 3."""

    conditions: dict[tuple[str, str], str]
    p_C: dict[tuple[str, str], BootstrapMean]
    margin: dict[tuple[str, str], BootstrapMean]
    both_minus_zero: BootstrapMean
    both_minus_zero_margin: BootstrapMean
    zero_zero_survivors: int
    n: int
    first_site: str  # the retrieval head, "block.head"


def grid(lab: HeadsLab, main: MainScreen, first: FirstCrossing, challenged: ChallengedScreen,
         content: ContentEffects, joint: JointCrossing) -> Grid:
    """§6: six cells are conditions the other studies recorded, named by them; only the three
    cells with the first head zeroed are run here."""
    (b1, h1), (b2, h2) = content.sites.items()
    measured = {("normal", "normal"): "native.O", ("normal", "zero"): main.screen.condition("O", h2),
                ("normal", "cross"): crossed(b2, "OD"), ("cross", "normal"): crossed(b1, "OD"),
                ("cross", "zero"): challenged.screen.condition("X", h2),
                ("cross", "cross"): joint.condition}
    new = {("zero", "normal"): f"zero.{b1}", ("zero", "zero"): f"zero.{b1}.{b2}",
           ("zero", "cross"): f"followup.reverse{b2}.zero{b1}"}
    conditions = {pair: {**measured, **new}[pair] for pair in product(TREATMENTS, TREATMENTS)}
    for family in lab.main:
        for pair, condition in new.items():
            patches = []
            for (block, head), treatment in zip(content.sites.items(), pair):
                if treatment == "normal":
                    continue
                message = content.messages[family.family_id, block]
                value = torch.zeros_like(message) if treatment == "zero" else message
                patches.append(head_output_patch(block, head, value))
            run, _ = lab.run_case(family, "O", condition, patches, capture_blocks=first.blocks)
            lab.check_previous_token(f"main:{family.family_id}:{condition}", run,
                                     lab.native(family, first.blocks)["O"])
    p_C, m = p_of("C"), margin_of("C", "L")
    survivors = sum(lab.observation(f, conditions["zero", "zero"]).predicts("L") for f in lab.main)
    return Grid(conditions,
                {k: bootstrap_mean(lab.values(c, p_C), CONTENT_SEED) for k, c in conditions.items()},
                {k: bootstrap_mean(lab.values(c, m), CONTENT_SEED) for k, c in conditions.items()},
                lab.paired(conditions["cross", "cross"], conditions["cross", "zero"], p_C),
                lab.paired(conditions["cross", "cross"], conditions["cross", "zero"], m),
                int(survivors), len(lab.main), f"{b1}.{h1}")
