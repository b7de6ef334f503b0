"""Seed 001 §4: attention/value crossing at the retrieval head, and the crossing test §5 repeats."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from harness.sources.heads.forward import ForwardRun
from harness.sources.heads.patches import head_output_patch, same
from harness.sources.heads.observations import (HeadsLab, Observation,
                                       compose_head_message, p_of)
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
