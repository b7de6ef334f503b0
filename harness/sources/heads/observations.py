"""Seed 001's observation record (§1): every live prefill is recorded once, with its receipts,
and the first family of each study is re-run through the independent reference forward."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
import torch

from harness.models.handle import Loaded
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.forward import (ForwardRun, Geometry, Indices, Receipt, every,
                                           reference_forward, run_forward)
from harness.sources.heads.patches import Patch, same
from harness.sources.heads.task import Family, Rendered, render

RESIDUAL_SEED, SCREEN_SEED, CONTENT_SEED = 31001, 300011, 27001
SCREEN_RESAMPLES = 10000


def answer_roles(family: Family, study: str) -> dict[str, str]:
    """§1: opening U/L/D, or main L (O's answer), C (D's label at O's row) and D."""
    if study == "opening":
        return {"U": family.R.answer, "L": family.O.answer, "D": family.D.answer}
    return {"L": family.O.answer, "C": family.D.bindings[family.O.query_row - 1][1],
            "D": family.D.answer}


@dataclass(frozen=True)
class Observation:
    """§1: one prefill's candidate logits, full-vocabulary logsumexp, top-1 and ties."""

    study: str
    family_id: str
    condition: str
    prompt_key: str
    roles: dict[str, str]
    candidate_ids: list[int]
    candidate_letters: list[str]
    candidate_logits: list[float]
    logsumexp: float
    top1_id: int
    top_tied_ids: list[int]
    edits: list[Receipt]
    meta: dict = field(default_factory=dict)

    def logit(self, role: str) -> float:
        return self.candidate_logits[self.candidate_letters.index(self.roles[role])]

    def probability(self, role: str) -> float:
        """Full-vocabulary probability of the role's label."""
        return math.exp(self.logit(role) - self.logsumexp)

    def margin(self, positive: str, negative: str) -> float:
        """Logit of one role's label minus another's."""
        return self.logit(positive) - self.logit(negative)

    def predicts(self, role: str) -> bool:
        """The role's label is the unique top-1 token."""
        return self.top_tied_ids == [self.candidate_ids[self.candidate_letters.index(self.roles[role])]]

    def top_label(self) -> str:
        labels = dict(zip(self.candidate_ids, self.candidate_letters))
        return labels.get(self.top1_id, f"vocabulary token {self.top1_id}")


Metric = Callable[[Observation], float]


def p_of(role: str) -> Metric:
    return lambda o: o.probability(role)


def margin_of(positive: str, negative: str) -> Metric:
    return lambda o: o.margin(positive, negative)


class HeadsLab:
    """§1 run_case: one model, prompts rendered once, every condition recorded exactly once."""

    def __init__(self, model: Loaded, opening: list[Family], main: list[Family],
                 swept_blocks: Indices = None, screened_heads: Indices = None) -> None:
        self.model, self.opening, self.main = model, opening, main
        self.geometry = Geometry.of(model)
        # §2's sweep transplants before these blocks, and every screen deletes these heads: all
        # of them, unless a profile's sizes name fewer.
        self.swept_blocks = every(swept_blocks, self.geometry.n_blocks)
        self.screened_heads = every(screened_heads, self.geometry.n_heads)
        self.observations: dict[tuple[str, str, str], Observation] = {}
        self.checks: dict[str, bool] = {}
        self.native_runs: dict[tuple[str, tuple[int, ...]], dict[str, ForwardRun]] = {}
        self._rendered: dict[tuple[str, str], Rendered] = {}
        self._first = {"opening": opening[0].family_id, "main": main[0].family_id}
        # Let nnsight install its own hooks before any hook clean-up is checked.
        run_forward(model, self.prompt(main[0], "O").input_ids)

    def prompt(self, family: Family, key: str) -> Rendered:
        if (family.family_id, key) not in self._rendered:
            self._rendered[family.family_id, key] = render(getattr(family, key), self.model.tok)
        return self._rendered[family.family_id, key]

    def run_case(self, family: Family, key: str, condition: str, patches: Sequence[Patch] = (),
                 *, capture_blocks: Sequence[int], study: str = "main",
                 **meta) -> tuple[ForwardRun, Observation]:
        """One live prefill capturing `capture_blocks`, recorded; the first family is also
        checked against the reference."""
        ids = self.prompt(family, key).input_ids
        run = run_forward(self.model, ids, patches, capture_blocks)
        tag = f"{study}:{family.family_id}:{condition}"
        self.checks[f"receipts:{tag}"] = all(r.exact for r in run.edits) and len(run.edits) == len(patches)
        self.checks[f"untouched:{tag}"] = run.untouched
        self.checks[f"hooks:{tag}"] = run.hooks_removed
        if family.family_id == self._first[study]:
            self.checks[f"reference:{tag}"] = same(
                reference_forward(self.model, ids, patches), run.logits)
        obs = self._record(family, key, condition, run, study, meta)
        return run, obs

    def _record(self, family: Family, key: str, condition: str, run: ForwardRun, study: str,
                meta: dict) -> Observation:
        rendered, question = self.prompt(family, key), getattr(family, key)
        logits = run.logits[0, -1]
        obs = Observation(study, family.family_id, condition, key, answer_roles(family, study),
                          rendered.candidate_ids, [label for _, label in question.bindings],
                          logits[rendered.candidate_ids].tolist(), float(logits.logsumexp(0)),
                          int(logits.argmax()), (logits == logits.max()).nonzero().flatten().tolist(),
                          run.edits, meta)
        k = (study, family.family_id, condition)
        assert k not in self.observations, f"repeated condition {k}"
        self.observations[k] = obs
        return obs

    def check_previous_token(self, tag: str, run: ForwardRun, baseline: ForwardRun) -> None:
        """§1: a final-token edit leaves the previous token's logits unchanged."""
        self.checks[f"previous:{tag}"] = same(run.logits[:, 0], baseline.logits[:, 0])

    def observation(self, family: Family, condition: str, study: str = "main") -> Observation:
        return self.observations[study, family.family_id, condition]

    def has_case(self, family: Family, condition: str, study: str = "main") -> bool:
        return (study, family.family_id, condition) in self.observations

    def values(self, condition: str, metric: Metric) -> np.ndarray:
        """One metric per main family under one condition."""
        return np.array([metric(self.observation(f, condition)) for f in self.main])

    def paired(self, treatment: str, baseline: str, metric: Metric) -> BootstrapMean:
        """§1 paired_summary: per-family treatment − baseline, bootstrapped with the content seed."""
        return bootstrap_mean(self.values(treatment, metric) - self.values(baseline, metric),
                              CONTENT_SEED)

    def native(self, family: Family, blocks: tuple[int, ...]) -> dict[str, ForwardRun]:
        """§3: unmodified O and D runs of a main family capturing `blocks`, computed once and
        shared (asking again with other blocks would repeat a condition, which _record refuses)."""
        if (family.family_id, blocks) not in self.native_runs:
            o, d = self.prompt(family, "O"), self.prompt(family, "D")
            assert family.O.query == family.D.query and len(o.input_ids) == len(d.input_ids)
            assert o.label_positions == d.label_positions
            assert len(set(answer_roles(family, "main").values())) == 3
            self.native_runs[family.family_id, blocks] = {
                k: self.run_case(family, k, f"native.{k}", capture_blocks=blocks)[0]
                for k in ("O", "D")}
        return self.native_runs[family.family_id, blocks]


def repeat_kv(values: torch.Tensor, query_heads: int) -> torch.Tensor:
    """§4: [batch, kv head, seq, width] → one value bank per query head."""
    groups = query_heads // values.shape[1]
    return (values[:, :, None].expand(-1, -1, groups, -1, -1)
            .reshape(values.shape[0], query_heads, values.shape[2], values.shape[3]))


def compose_head_message(attention: torch.Tensor, values: torch.Tensor, donor_values: torch.Tensor,
                         head: int, label_positions: list[int] | None = None) -> torch.Tensor:
    """§4: keep one run's attention and swap the head's shared value bank (all positions, or
    only `label_positions`) for the donor's; the full A @ V product keeps bf16 rounding."""
    values = values.clone()
    group = head // (attention.shape[1] // values.shape[2])
    if label_positions is None:
        values[:, :, group] = donor_values[:, :, group]
    else:
        values[:, label_positions, group] = donor_values[:, label_positions, group]
    outputs = (attention @ repeat_kv(values.transpose(1, 2), attention.shape[1])).transpose(1, 2)
    return outputs.contiguous()[:, -1, head]
