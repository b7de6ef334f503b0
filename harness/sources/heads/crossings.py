"""Seed 001 §4–§5: attention/value crossing at the selected heads, and the challenged screen."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.forward import ForwardRun
from harness.sources.heads.patches import head_output_patch, same
from harness.sources.heads.lab import (SCREEN_RESAMPLES, SCREEN_SEED, HeadsLab, Observation,
                                       compose_head_message, margin_of, p_of)
from harness.sources.heads.screens import MainScreen, Screen, screen_heads
from harness.sources.heads.task import Family

PAIRINGS = ("OO", "OD", "OD.label")    # identity, crossed, label-only
FIRST_PAIRINGS = PAIRINGS[:2]          # what §4 measures at the retrieval head

Messages = dict[tuple[str, int], torch.Tensor]   # (family, block) → crossed Z slice


def crossed(block: int, pairing: str) -> str:
    """§4's condition name for one pairing's recomposed message at a block."""
    return f"AV.{block}.{pairing}"


def content_test(lab: HeadsLab, family: Family, blocks: tuple[int, int], block: int, head: int,
                 pairing: str) -> tuple[ForwardRun, Observation, torch.Tensor]:
    """§4 ensure_content_test: O's attention with O's (OO), D's (OD) or, at the queried label
    only, D's values (OD.label), built from unmodified O/D and patched into O."""
    condition = crossed(block, pairing)
    native = lab.native(family, blocks)
    ordinary = native["O"].activations[block]
    donor = native["O" if pairing == "OO" else "D"].activations[block]
    positions = None
    if pairing == "OD.label":
        positions = [lab.prompt(family, "O").label_positions[family.O.query_row - 1]]
    message = compose_head_message(ordinary.attention, ordinary.values, donor.values, head, positions)
    run, obs = lab.run_case(family, "O", condition, [head_output_patch(block, head, message)],
                            capture_blocks=blocks)
    lab.check_previous_token(f"main:{family.family_id}:{condition}", run, native["O"])
    if pairing == "OO":  # §4: the identity pairing must reproduce Z and the logits exactly
        lab.checks[f"content_identity:{family.family_id}:{block}"] = (
            same(message, ordinary.head_output_before[:, -1, head])
            and same(run.logits, native["O"].logits))
    return run, obs, message


@dataclass(frozen=True)
class ConditionRow:
    """A condition's readouts for one family: p(L), p(C), the C−L margin and the top label."""

    condition: str
    p_L: float
    p_C: float
    margin_C_minus_L: float
    top: str

    @classmethod
    def of(cls, obs: Observation) -> "ConditionRow":
        return cls(obs.condition, obs.probability("L"), obs.probability("C"), obs.margin("C", "L"),
                   obs.top_label())


@dataclass(frozen=True)
class CohortRow:
    """A condition over the main families: mean p(L), mean p(C) and unique L predictions."""

    condition: str
    mean_p_L: float
    mean_p_C: float
    L_predictions: int
    n: int


def cohort(lab: HeadsLab, condition: str) -> CohortRow:
    return CohortRow(condition, float(lab.values(condition, p_of("L")).mean()),
                     float(lab.values(condition, p_of("C")).mean()),
                     int(sum(lab.observation(f, condition).predicts("L") for f in lab.main)),
                     len(lab.main))


@dataclass
class FirstCrossing:
    """§4: the retrieval head's O-attention/D-values crossing, example and cohort, with each
    family's crossed message and the run it was measured in (§5 challenges those runs)."""

    blocks: tuple[int, int]
    head: int
    example: list[ConditionRow]
    rows: list[CohortRow]
    messages: Messages
    challenged: dict[str, tuple[ForwardRun, Observation]]

    @property
    def block(self) -> int:
        return self.blocks[0]


def first_crossing(lab: HeadsLab, blocks: tuple[int, int], head: int) -> FirstCrossing:
    """§4: OO then OD at the retrieval head (the first of `blocks`) for every main family."""
    block = blocks[0]
    messages: Messages = {}
    challenged = {}
    for family in lab.main:
        content_test(lab, family, blocks, block, head, "OO")
        run, obs, message = content_test(lab, family, blocks, block, head, "OD")
        messages[family.family_id, block] = message
        challenged[family.family_id] = (run, obs)
    conditions = ("native.O", crossed(block, "OD"))
    example = [ConditionRow.of(lab.observation(lab.main[0], c)) for c in conditions]
    return FirstCrossing(blocks, head, example, [cohort(lab, c) for c in conditions],
                         messages, challenged)


@dataclass
class ChallengedScreen:
    """§5: the next block's deletions in O with the retrieval head's crossed message fixed (X)."""

    screen: Screen
    support_head: int
    runner_up: int
    gap: BootstrapMean
    unique_wins: int
    ranking: list[tuple[int, BootstrapMean]]


def challenged_screen(lab: HeadsLab, main: MainScreen, first: FirstCrossing) -> ChallengedScreen:
    """§5: context X at the main screen's block, ranked by the same rule; the gap and unique
    wins of the top head."""
    block, head = first.block, first.head
    screen = Screen(main.screen.block)
    for family in lab.main:
        run, obs = first.challenged[family.family_id]
        message = first.messages[family.family_id, block]
        cache = run.activations[block]
        lab.checks[f"challenge:{family.family_id}"] = (
            same(cache.head_output_used[:, -1, head], message)
            and same(cache.residual_used, cache.residual_before))
        screen.effects += screen_heads(lab, family, "O", screen, "X", (run, obs),
                                       [head_output_patch(block, head, message)])
    screen.summarise("X", lab.geometry.n_heads)
    ranking = screen.ranking("X")
    support, runner_up = ranking[0], ranking[1]
    gap = bootstrap_mean(screen.values("X", support) - screen.values("X", runner_up),
                         SCREEN_SEED, SCREEN_RESAMPLES)
    by_family = np.stack([screen.values("X", h) for h in range(lab.geometry.n_heads)], axis=1)
    wins = sum(np.flatnonzero(row == row.max()).tolist() == [support] for row in by_family)
    return ChallengedScreen(screen, support, runner_up, gap, int(wins),
                            [(h, screen.summary["X"][h]["loss_pL"]) for h in ranking])


@dataclass
class ContentEffects:
    """§5: per head site, crossed minus identity in p(C) and C−L margin, and label-only; with
    both sites' crossed messages."""

    sites: dict[int, int]
    effects: dict[int, dict[str, BootstrapMean]]
    messages: Messages


def content_effects(lab: HeadsLab, first: FirstCrossing,
                    challenged: ChallengedScreen) -> ContentEffects:
    """§5: OO / OD / OD.label at the retrieval head and the challenged screen's support head
    (the first crossing's pairings reused), summarised as paired family bootstraps."""
    sites = {first.block: first.head, challenged.screen.block: challenged.support_head}
    messages = dict(first.messages)
    for family in lab.main:
        for block, head in sites.items():
            for pairing in PAIRINGS:
                if block == first.block and pairing in FIRST_PAIRINGS:
                    continue
                _, _, message = content_test(lab, family, first.blocks, block, head, pairing)
                if pairing == "OD":
                    messages[family.family_id, block] = message
    p_C, m = p_of("C"), margin_of("C", "L")
    effects = {}
    for block in sites:
        oo, od, label = (crossed(block, x) for x in PAIRINGS)
        effects[block] = {"probability": lab.paired(od, oo, p_C), "margin": lab.paired(od, oo, m),
                          "label_minus_full": lab.paired(label, od, p_C),
                          "label_margin": lab.paired(label, oo, m)}
    return ContentEffects(sites, effects, messages)
