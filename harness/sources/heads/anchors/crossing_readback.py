"""Seed 001 §4–§6 read back (issue 36): what the crossings, the joint crossing and the grid
recorded for main family 0, re-measured through plain transformers forwards whose crossed
messages know nothing of the experiment (D's value bank, or O's with D's at the queried label,
written into the KV head transformers' repeat_kv gives the head: groups.reference_message); and
what §4's rows, §5's content effects, §6's joint summaries and grid cells summarise, against the
recorded observations by the seed's definitions. A message from the wrong head or donor, a grid
cell mapped to another condition or treatment, or an effect or row of the wrong sign fails here."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
import torch

from harness.models.handle import Loaded
from harness.sources.heads.anchors.groups import kv_head_of, plain_values, reference_message
from harness.sources.heads.anchors.machinery import ExactChecks
from harness.sources.heads.anchors.readback import TOLERANCE
from harness.sources.heads.content_effects import ContentEffects
from harness.sources.heads.crossings import PAIRINGS, ConditionRow, FirstCrossing, crossed
from harness.sources.heads.forward import reference_forward
from harness.sources.heads.grid import BOTH, Grid, JointCrossing
from harness.sources.heads.observations import HeadsLab, Observation
from harness.sources.heads.patches import head_output_patch
from harness.sources.heads.task import render

Row = tuple[float, float, float]  # p(L), p(C), the C−L logit margin
Writes = tuple[tuple[int, str], ...]  # (block, "OD", "OD.label" or "zero") at that block's head
# §5's effects: (treatment, baseline, metric), each a per-family difference, averaged.
EFFECTS = {"probability": ("OD", "OO", "p_C"), "margin": ("OD", "OO", "margin"),
           "label_minus_full": ("OD.label", "OD", "p_C"),
           "label_margin": ("OD.label", "OO", "margin")}
METRICS: dict[str, Callable[[Observation], float]] = {
    "p_L": lambda o: o.probability("L"), "p_C": lambda o: o.probability("C"),
    "margin": lambda o: o.margin("C", "L")}


def close(a: Sequence[float], b: Sequence[float]) -> bool:
    """Each recorded value within TOLERANCE of its reference."""
    return all(abs(x - y) <= TOLERANCE for x, y in zip(a, b))


def crossing_readback(model: Loaded, lab: HeadsLab, first: FirstCrossing,
                      content: ContentEffects, joint: JointCrossing, grid: Grid) -> ExactChecks:
    """§4–§6 on main family 0 at both head sites: each pairing's run and §4's example rows
    against the reference; each grid cell's condition against the reference writing that cell's
    treatments (normal: nothing, zero: zeros, cross: the reference's crossed message); and §4's
    cohort rows, §5's effects, §6's joint summaries and cell means against the observations."""
    family, checks = lab.main[0], ExactChecks(means=(
        "{}: what §4–§6 recorded or summarised there differs from the plain forward writing "
        "that cell's messages, or from the recorded observations"))
    o, d = (render(getattr(family, k), model.tok) for k in ("O", "D"))
    tokens = [model.tok.encode(" " + label, add_special_tokens=False)[0]  # §3's L and C
              for label in (family.O.answer, family.D.bindings[family.O.query_row - 1][1])]
    position = o.label_positions[family.O.query_row - 1]
    sites, kv = content.sites, kv_head_of(model.hf.config)
    ordinary, donor = plain_values(model, o.input_ids, list(sites)), plain_values(
        model, d.input_ids, list(sites))
    messages: dict[tuple[int, str], torch.Tensor] = {}
    for b, h in sites.items():
        label_bank = ordinary[b].clone()
        label_bank[:, position] = donor[b][:, position]
        for pairing, bank in (("OD", donor[b]), ("OD.label", label_bank)):
            messages[b, pairing] = reference_message(model, o.input_ids, b, h, kv[h], bank)
    rows: dict[Writes, Row] = {}

    def reference(*writes: tuple[int, str]) -> Row:
        """O's p(L), p(C) and C−L margin with each write at its block's head (each once)."""
        if writes not in rows:
            logits = reference_forward(model, o.input_ids, [head_output_patch(
                b, sites[b], torch.zeros_like(messages[b, "OD"]) if m == "zero"
                else messages[b, m]) for b, m in writes])[0, -1].double()
            p = torch.softmax(logits, 0)
            rows[writes] = (float(p[tokens[0]]), float(p[tokens[1]]),
                            float(logits[tokens[1]] - logits[tokens[0]]))
        return rows[writes]

    def recorded(condition: str) -> Row:
        obs = lab.observation(family, condition)
        return obs.probability("L"), obs.probability("C"), obs.margin("C", "L")

    def mean(condition: str, metric: str) -> float:
        return float(np.mean([METRICS[metric](lab.observation(f, condition)) for f in lab.main]))

    for b, h in sites.items():
        for pairing in PAIRINGS:  # OO writes O's own message: the reference writes nothing
            writes = () if pairing == "OO" else ((b, pairing),)
            checks.add(f"crossing:{b}.{h}:{pairing}",
                       close(recorded(crossed(b, pairing)), reference(*writes)))
    example: list[ConditionRow] = first.example  # native O, then crossed at the retrieval head
    for row, writes in zip(example, ((), ((first.block, "OD"),))):
        checks.add(f"example:{row.condition}",
                   close((row.p_L, row.p_C, row.margin_C_minus_L), reference(*writes)))
    for c in first.rows:
        checks.add(f"cohort:{c.condition}", close((c.mean_p_L, c.mean_p_C), (
            mean(c.condition, "p_L"), mean(c.condition, "p_C"))) and c.L_predictions == sum(
            lab.observation(f, c.condition).predicts("L") for f in lab.main))
    for b in sites:
        for name, (treated, base, metric) in EFFECTS.items():
            effect = mean(crossed(b, treated), metric) - mean(crossed(b, base), metric)
            checks.add(f"content:{b}:{name}",
                       abs(content.effects[b][name].mean - effect) <= TOLERANCE)
    checks.add("joint", all(abs(s.mean - mean(c, "p_C")) <= TOLERANCE
                            for c, s in joint.summaries.items())
               and joint.c_wins == sum(lab.observation(f, BOTH).predicts("C") for f in lab.main))
    for pair, condition in grid.conditions.items():
        writes = tuple((b, "zero" if t == "zero" else "OD")
                       for b, t in zip(sites, pair) if t != "normal")
        checks.add(f"grid:{pair[0]}_{pair[1]}", close(recorded(condition), reference(*writes))
                   and abs(grid.p_C[pair].mean - mean(condition, "p_C")) <= TOLERANCE
                   and abs(grid.margin[pair].mean - mean(condition, "margin")) <= TOLERANCE)
    return checks
