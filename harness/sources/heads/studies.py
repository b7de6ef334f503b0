"""Seed 001's experiments (§2–§7) on a HeadsLab: the residual transplant, the head screens,
attention/value crossing, the joint crossing and the 3×3 grid. Selection rules are applied,
never assumed: later studies use whatever block and heads the rules picked."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from harness.sources.heads.lab import (CONTENT_SEED, RESIDUAL_SEED, SCREEN_RESAMPLES, SCREEN_SEED,
                                       HeadsLab, Observation, answer_roles, compose_head_message,
                                       margin_of, p_of)
from harness.sources.heads.forward import (ForwardRun, Patch, head_output_patch,
                                               residual_patch)
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.task import Family

UPSTREAM = ("residual_before", "residual_used", "values", "attention", "head_output_before")


@dataclass
class ResidualSweep:
    """§2: mean p(U), p(L), p(D) after transplanting D's final residual into R at each block.

    The notebook's residual-identity check is the heads.residual-identity anchor (every block)."""

    stats: dict[int, dict[str, BootstrapMean]]
    retrieval_block: int | None
    donor_residuals: dict[str, dict[int, torch.Tensor]]


def select_block(stats: dict[int, dict[str, BootstrapMean]]) -> int | None:
    """§2's rule: the latest block with mean p(L) ≥ .25 and p(L) − p(D) ≥ .10."""
    eligible = [b for b, s in stats.items()
                if s["L"].mean >= 0.25 and s["L"].mean - s["D"].mean >= 0.10]
    return max(eligible) if eligible else None


@dataclass(frozen=True)
class Site:
    """The block later studies inspect, and whether §2's rule chose it."""

    block: int
    chosen_by: str   # "rule" or "smoke-test block"


def site_for(sweep: ResidualSweep, n_blocks: int, smoke_block: int | None) -> Site | None:
    """§2: the rule's block when it leaves a next block to screen; otherwise the smoke-test
    block (the notebook's RUN_ALL_FAMILIES=False path), if the profile declares one."""
    block = sweep.retrieval_block
    if block is not None and block + 1 < n_blocks:
        return Site(block, "rule")
    return Site(smoke_block, "smoke-test block") if smoke_block is not None else None


def residual_sweep(lab: HeadsLab) -> ResidualSweep:
    """§2: native R and D (all blocks captured), then D's residual into R before every block."""
    blocks = list(range(lab.geometry.n_blocks))
    rows: dict[int, list[Observation]] = {b: [] for b in blocks}
    donors = {}
    for family in lab.opening:
        assert len(lab.prompt(family, "R").input_ids) == len(lab.prompt(family, "D").input_ids)
        recipient, _ = lab.run_case(family, "R", "native.R", study="opening", capture_blocks=blocks)
        donor, _ = lab.run_case(family, "D", "native.D", study="opening", capture_blocks=blocks)
        donors[family.family_id] = {b: c.residual_before[:, -1].clone()
                                    for b, c in donor.activations.items()}
        for b in blocks:
            hybrid, obs = lab.run_case(family, "R", f"residual.layer{b:02d}",
                                       [residual_patch(b, donors[family.family_id][b])],
                                       study="opening", capture_blocks=(b,), layer=b)
            lab.check_previous_token(f"opening:{family.family_id}:residual.layer{b:02d}",
                                     hybrid, recipient)
            rows[b].append(obs)
    stats = {b: {role: bootstrap_mean([o.probability(role) for o in rows[b]], RESIDUAL_SEED)
                 for role in ("U", "L", "D")} for b in blocks}
    return ResidualSweep(stats, select_block(stats), donors)


@dataclass(frozen=True)
class HeadEffect:
    """§2: one family's loss of p(L) and of the L-vs-rival margin when one head is zeroed."""

    family_id: str
    context: str
    head: int
    loss_pL: float
    loss_margin: float
    before_correct: bool
    after_correct: bool


@dataclass
class Screen:
    """§2–§5: single-head deletions at one block, per context, with family-bootstrap summaries."""

    block: int
    effects: list[HeadEffect] = field(default_factory=list)
    summary: dict[str, dict[int, dict[str, BootstrapMean]]] = field(default_factory=dict)

    def values(self, context: str, head: int, metric: str = "loss_pL") -> np.ndarray:
        return np.array([getattr(e, metric) for e in self.effects
                         if e.context == context and e.head == head])

    def summarise(self, context: str, n_heads: int) -> None:
        """§2 summarize_screen: bootstrap each head's mean loss with the screen seed."""
        self.summary[context] = {
            h: {m: bootstrap_mean(self.values(context, h, m), SCREEN_SEED, SCREEN_RESAMPLES)
                for m in ("loss_pL", "loss_margin")} for h in range(n_heads)}

    def ranking(self, context: str) -> list[int]:
        """§2 rank_heads: largest mean p(L) loss first, ties by head index."""
        s = self.summary[context]
        return sorted(s, key=lambda h: (-s[h]["loss_pL"].mean, h))


def screen_heads(lab: HeadsLab, family: Family, key: str, block: int, context: str,
                 baseline: tuple[ForwardRun, Observation], background: list[Patch],
                 study: str = "main", rival: str = "C") -> list[HeadEffect]:
    """§2: zero one head's final-position output at a time, keeping the background edits."""
    run0, before = baseline
    prefix = ("conditional" if context == "H" else "query_matched") if study == "opening" \
        else f"screen.{context}"
    effects = []
    for head in range(lab.geometry.n_heads):
        condition = f"{prefix}.head{head}.zero"
        zero = torch.zeros_like(run0.activations[block].head_output_before[:, -1, head])
        run, after = lab.run_case(family, key, condition,
                                  background + [head_output_patch(block, head, zero)],
                                  study=study, capture_blocks=tuple(run0.activations),
                                  context=context, head=head)
        tag = f"{study}:{family.family_id}:{condition}"
        lab.check_previous_token(tag, run, run0)
        upstream = True
        for b, original in run0.activations.items():
            if b > block:
                continue
            current = run.activations[b]
            upstream &= all(torch.equal(getattr(current, f), getattr(original, f)) for f in UPSTREAM)
            expected = original.head_output_used.clone()
            if b == block:
                expected[:, -1, head] = 0
            upstream &= torch.equal(current.head_output_used, expected)
        lab.checks[f"ablation:{tag}"] = upstream
        effects.append(HeadEffect(family.family_id, context, head,
                                  before.probability("L") - after.probability("L"),
                                  before.margin("L", rival) - after.margin("L", rival),
                                  before.predicts("L"), after.predicts("L")))
    return effects


@dataclass
class OpeningScreen:
    """§2: block `retrieval_block`'s heads zeroed in H (transplant) and O, 8 opening families."""

    screen: Screen
    retrieval_head: int
    hybrid_correct_before: int
    hybrid_correct_after: int


def opening_screen(lab: HeadsLab, sweep: ResidualSweep, block: int) -> OpeningScreen:
    """§2: the H and O deletion screens at the inspected block, and the rule that picks a head.

    The notebook's head-identity check is the heads.head-identity anchor (every block and head)."""
    screen = Screen(block)
    for family in lab.opening:
        background = [residual_patch(block, sweep.donor_residuals[family.family_id][block])]
        hybrid = lab.run_case(family, "R", "hybrid.H", background, study="opening",
                              capture_blocks=(block,))
        ordinary = lab.run_case(family, "O", "native.O", study="opening", capture_blocks=(block,))
        screen.effects += screen_heads(lab, family, "R", block, "H", hybrid, background,
                                       study="opening", rival="U")
        screen.effects += screen_heads(lab, family, "O", block, "O", ordinary, [],
                                       study="opening", rival="U")
    for context in ("H", "O"):
        screen.summarise(context, lab.geometry.n_heads)
    head = screen.ranking("H")[0]
    chosen = [e for e in screen.effects if e.context == "H" and e.head == head]
    return OpeningScreen(screen, head, sum(e.before_correct for e in chosen),
                         sum(e.after_correct for e in chosen))


@dataclass
class MainScreen:
    """§3: the next block's heads zeroed in H and O over the main families."""

    screen: Screen
    ordinary_survivors: int          # (family, head) deletions in O whose answer stays L
    deletions: int


def main_screen(lab: HeadsLab, retrieval_block: int) -> MainScreen:
    """§3: transplant at the retrieval block, delete each head of the next block, in H and O."""
    next_block = retrieval_block + 1
    lab.head_blocks = (retrieval_block, next_block)
    screen = Screen(next_block)
    for family in lab.main:
        native = lab.native(family)
        donor = native["D"].activations[retrieval_block].residual_before[:, -1]
        background = [residual_patch(retrieval_block, donor)]
        hybrid = lab.run_case(family, "R", "screen.H", background)
        lab.checks[f"transplant:{family.family_id}"] = torch.equal(
            hybrid[0].activations[retrieval_block].residual_used[:, -1], donor)
        screen.effects += screen_heads(lab, family, "R", next_block, "H", hybrid, background)
        screen.effects += screen_heads(lab, family, "O", next_block, "O",
                                       (native["O"], lab.observation(family, "native.O")), [])
    for context in ("H", "O"):
        screen.summarise(context, lab.geometry.n_heads)
    survivors = sum(lab.observation(f, f"screen.O.head{h}.zero").predicts("L")
                    for f in lab.main for h in range(lab.geometry.n_heads))
    return MainScreen(screen, survivors, len(lab.main) * lab.geometry.n_heads)


@dataclass
class Crossings:
    """§4: crossed messages built from unmodified O/D, and the runs they were measured in."""

    messages: dict[tuple[str, int], torch.Tensor] = field(default_factory=dict)
    challenged: dict[str, tuple[ForwardRun, Observation]] = field(default_factory=dict)


def content_test(lab: HeadsLab, crossings: Crossings, family: Family, block: int, head: int,
                 pairing: str, retain_challenge: bool = False) -> Observation:
    """§4 ensure_content_test: identity (OO), crossed (OD) or label-only (OD.label), run once."""
    condition = f"AV.{block}.{pairing}"
    if lab.has_case(family, condition):
        return lab.observation(family, condition)
    native = lab.native(family)
    ordinary = native["O"].activations[block]
    donor = native["O" if pairing == "OO" else "D"].activations[block]
    positions = None
    if pairing == "OD.label":
        positions = [lab.prompt(family, "O").label_positions[family.O.query_row - 1]]
    message = compose_head_message(ordinary.attention, ordinary.values, donor.values, head, positions)
    run, obs = lab.run_case(family, "O", condition, [head_output_patch(block, head, message)])
    lab.check_previous_token(f"main:{family.family_id}:{condition}", run, native["O"])
    if pairing == "OO":  # §4: the identity pairing must reproduce Z and the logits exactly
        lab.checks[f"content_identity:{family.family_id}:{block}"] = (
            torch.equal(message, ordinary.head_output_before[:, -1, head])
            and torch.equal(run.logits, native["O"].logits))
    if pairing == "OD":
        crossings.messages[family.family_id, block] = message
    if retain_challenge:
        crossings.challenged[family.family_id] = (run, obs)
    return obs


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
    """§4: the retrieval head's O-attention/D-values crossing, example and cohort."""

    block: int
    head: int
    example: list[ConditionRow]
    rows: list[CohortRow]
    crossings: Crossings


def first_crossing(lab: HeadsLab, block: int, head: int) -> FirstCrossing:
    """§4: OO then OD at the retrieval head for every main family (OD runs kept for §5)."""
    crossings = Crossings()
    for family in lab.main:
        content_test(lab, crossings, family, block, head, "OO")
        content_test(lab, crossings, family, block, head, "OD", retain_challenge=True)
    example = [ConditionRow.of(lab.observation(lab.main[0], c))
               for c in ("native.O", f"AV.{block}.OD")]
    return FirstCrossing(block, head, example,
                         [cohort(lab, c) for c in ("native.O", f"AV.{block}.OD")], crossings)


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
    """§5: context X, ranked by the same rule; the gap and unique wins of the top head."""
    screen, block, head = main.screen, first.block, first.head
    for family in lab.main:
        run, obs = first.crossings.challenged.pop(family.family_id)
        message = first.crossings.messages[family.family_id, block]
        cache = run.activations[block]
        lab.checks[f"challenge:{family.family_id}"] = (
            torch.equal(cache.head_output_used[:, -1, head], message)
            and torch.equal(cache.residual_before, cache.residual_used))
        screen.effects += screen_heads(lab, family, "O", screen.block, "X", (run, obs),
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
    """§5: per head site, crossed minus identity in p(C) and C−L margin, and label-only."""

    sites: dict[int, int]
    effects: dict[int, dict[str, BootstrapMean]]


def content_effects(lab: HeadsLab, first: FirstCrossing, support_head: int) -> ContentEffects:
    """§5: OO / OD / OD.label at both selected heads, summarised as paired family bootstraps."""
    sites = {first.block: first.head, first.block + 1: support_head}
    for family in lab.main:
        for block, head in sites.items():
            for pairing in ("OO", "OD", "OD.label"):
                content_test(lab, first.crossings, family, block, head, pairing)
    p_C, m = p_of("C"), margin_of("C", "L")
    effects = {}
    for block in sites:
        oo, od, label = (f"AV.{block}.{x}" for x in ("OO", "OD", "OD.label"))
        effects[block] = {"probability": lab.paired(od, oo, p_C), "margin": lab.paired(od, oo, m),
                          "label_minus_full": lab.paired(label, od, p_C),
                          "label_margin": lab.paired(label, oo, m)}
    return ContentEffects(sites, effects)


@dataclass
class JointCrossing:
    """§6: both crossed messages supplied together."""

    summaries: dict[str, BootstrapMean]     # condition → mean p(C)
    c_wins: int
    n: int
    example: list[ConditionRow]
    example_roles: dict[str, str]


def joint_crossing(lab: HeadsLab, first: FirstCrossing, content: ContentEffects) -> JointCrossing:
    """§6: insert both crossed Z slices (each from unmodified O/D) into one O run."""
    for family in lab.main:
        patches = [head_output_patch(b, h, first.crossings.messages[family.family_id, b])
                   for b, h in content.sites.items()]
        run, _ = lab.run_case(family, "O", "followup.both.OD", patches)
        lab.check_previous_token(f"main:{family.family_id}:followup.both.OD", run,
                                 lab.native(family)["O"])
    b1, b2 = content.sites
    conditions = (f"AV.{b1}.OD", f"AV.{b2}.OD", "followup.both.OD")
    summaries = {c: bootstrap_mean(lab.values(c, p_of("C")), CONTENT_SEED) for c in conditions}
    wins = sum(lab.observation(f, "followup.both.OD").predicts("C") for f in lab.main)
    example = [ConditionRow.of(lab.observation(lab.main[0], c)) for c in ("native.O", *conditions)]
    return JointCrossing(summaries, int(wins), len(lab.main), example,
                         answer_roles(lab.main[0], "main"))


TREATMENTS = ("normal", "zero", "cross")


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


def grid(lab: HeadsLab, first: FirstCrossing, content: ContentEffects) -> Grid:
    """§6: reuse the cells already measured and run only the three that are new."""
    (b1, h1), (b2, h2) = content.sites.items()
    conditions = {
        ("normal", "normal"): "native.O", ("normal", "zero"): f"screen.O.head{h2}.zero",
        ("normal", "cross"): f"AV.{b2}.OD", ("zero", "normal"): f"zero.{b1}",
        ("zero", "zero"): f"zero.{b1}.{b2}", ("zero", "cross"): f"followup.reverse{b2}.zero{b1}",
        ("cross", "normal"): f"AV.{b1}.OD", ("cross", "zero"): f"screen.X.head{h2}.zero",
        ("cross", "cross"): "followup.both.OD"}
    for family in lab.main:
        for pair, condition in conditions.items():
            if lab.has_case(family, condition):
                continue
            patches = []
            for (block, head), treatment in zip(content.sites.items(), pair):
                if treatment == "normal":
                    continue
                message = first.crossings.messages[family.family_id, block]
                value = torch.zeros_like(message) if treatment == "zero" else message
                patches.append(head_output_patch(block, head, value))
            run, _ = lab.run_case(family, "O", condition, patches)
            lab.check_previous_token(f"main:{family.family_id}:{condition}", run,
                                     lab.native(family)["O"])
    p_C, m = p_of("C"), margin_of("C", "L")
    survivors = sum(lab.observation(f, conditions["zero", "zero"]).predicts("L") for f in lab.main)
    return Grid(conditions,
                {k: bootstrap_mean(lab.values(c, p_C), CONTENT_SEED) for k, c in conditions.items()},
                {k: bootstrap_mean(lab.values(c, m), CONTENT_SEED) for k, c in conditions.items()},
                lab.paired("followup.both.OD", conditions["cross", "zero"], p_C),
                lab.paired("followup.both.OD", conditions["cross", "zero"], m),
                int(survivors), len(lab.main))
