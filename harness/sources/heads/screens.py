"""Seed 001 §2–§3: single-head deletion screens, at the inspected block and the next one."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import torch

from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.forward import ForwardRun
from harness.sources.heads.patches import Patch, head_output_patch, residual_patch, same
from harness.sources.heads.observations import SCREEN_RESAMPLES, SCREEN_SEED, HeadsLab, Observation
from harness.sources.heads.sweep import ResidualSweep
from harness.sources.heads.task import Family

UPSTREAM = ("residual_before", "residual_used", "values", "attention", "head_output_before")


def deletion(study: str, context: str, head: int) -> str:
    """§2–§5's condition name for zeroing one head's final-position output in a context."""
    prefix = (("conditional" if context == "H" else "query_matched") if study == "opening"
              else f"screen.{context}")
    return f"{prefix}.head{head}.zero"


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
    study: str = "main"
    effects: list[HeadEffect] = field(default_factory=list)
    summary: dict[str, dict[int, dict[str, BootstrapMean]]] = field(default_factory=dict)

    def condition(self, context: str, head: int) -> str:
        """The recorded condition of one of this screen's deletions."""
        return deletion(self.study, context, head)

    def values(self, context: str, head: int, metric: str = "loss_pL") -> np.ndarray:
        return np.array([getattr(e, metric) for e in self.effects
                         if e.context == context and e.head == head])

    def summarise(self, context: str, heads: Sequence[int]) -> None:
        """§2 summarize_screen: bootstrap each head's mean loss with the screen seed."""
        self.summary[context] = {
            h: {m: bootstrap_mean(self.values(context, h, m), SCREEN_SEED, SCREEN_RESAMPLES)
                for m in ("loss_pL", "loss_margin")} for h in heads}

    def unique_wins(self, context: str, heads: Sequence[int], head: int) -> int:
        """§5: the families in which `head` alone has the largest p(L) loss of `heads`."""
        by_family = np.stack([self.values(context, h) for h in heads], axis=1)
        return sum([heads[i] for i in np.flatnonzero(row == row.max())] == [head]
                   for row in by_family)

    def ranking(self, context: str) -> list[int]:
        """§2 rank_heads: largest mean p(L) loss first, ties by head index (the order the later
        studies run in, not a winner: see `top`)."""
        s = self.summary[context]
        return sorted(s, key=lambda h: (-s[h]["loss_pL"].mean, h))

    def top(self, context: str) -> int | None:
        """The head with the largest mean p(L) loss, or None where another head ties it: a
        deletion that does nothing ties every head at 0, and a tie picks no head."""
        first, *rest = self.ranking(context)
        s = self.summary[context]
        return None if rest and s[rest[0]]["loss_pL"].mean == s[first]["loss_pL"].mean else first


def screen_heads(lab: HeadsLab, family: Family, key: str, screen: Screen, context: str,
                 baseline: tuple[ForwardRun, Observation], background: list[Patch],
                 rival: str = "C") -> list[HeadEffect]:
    """§2: zero one head's final-position output at a time, keeping the background edits; the
    runs capture what the baseline captured, and everything upstream must stay as it was."""
    run0, before = baseline
    block, study = screen.block, screen.study
    effects = []
    for head in lab.screened_heads:
        condition = screen.condition(context, head)
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
            upstream &= all(same(getattr(current, f), getattr(original, f)) for f in UPSTREAM)
            expected = original.head_output_used.clone()
            if b == block:
                expected[:, -1, head] = 0
            upstream &= same(current.head_output_used, expected)
        lab.checks[f"ablation:{tag}"] = upstream
        effects.append(HeadEffect(family.family_id, context, head,
                                  before.probability("L") - after.probability("L"),
                                  before.margin("L", rival) - after.margin("L", rival),
                                  before.predicts("L"), after.predicts("L")))
    return effects


@dataclass
class OpeningScreen:
    """§2: the inspected block's heads zeroed in H (transplant) and O, over the opening families."""

    screen: Screen
    retrieval_head: int | None  # the head §4–§6 run at: the screen's winner in H, None on a tie
    hybrid_correct_before: int  # H's correct answers before and after deleting the ranking's
    hybrid_correct_after: int   # first head (the largest loss, shared on a tie)


def opening_screen(lab: HeadsLab, sweep: ResidualSweep, block: int) -> OpeningScreen:
    """§2: the H and O deletion screens at the inspected block, and the rule that picks a head.

    The notebook's head-identity check is the heads.head-identity anchor (every block and head)."""
    screen = Screen(block, "opening")
    for family in lab.opening:
        background = [residual_patch(block, sweep.donor_residuals[family.family_id][block])]
        hybrid = lab.run_case(family, "R", "hybrid.H", background, study="opening",
                              capture_blocks=(block,))
        ordinary = lab.run_case(family, "O", "native.O", study="opening", capture_blocks=(block,))
        screen.effects += screen_heads(lab, family, "R", screen, "H", hybrid, background,
                                       rival="U")
        screen.effects += screen_heads(lab, family, "O", screen, "O", ordinary, [], rival="U")
    for context in ("H", "O"):
        screen.summarise(context, lab.screened_heads)
    return chosen(screen)


def chosen(screen: Screen) -> OpeningScreen:
    """§2's choice from the summarised screen: its winner in H (None on a tie: a tie picks no
    head), and H's correct answers before and after deleting the ranking's first head."""
    first = [e for e in screen.effects if e.context == "H" and e.head == screen.ranking("H")[0]]
    return OpeningScreen(screen, screen.top("H"), sum(e.before_correct for e in first),
                         sum(e.after_correct for e in first))


@dataclass
class MainScreen:
    """§3: the next block's heads zeroed in H and O over the main families."""

    screen: Screen
    ordinary_survivors: int          # (family, head) deletions in O whose answer stays L
    deletions: int


def main_screen(lab: HeadsLab, blocks: tuple[int, int]) -> MainScreen:
    """§3: transplant at the retrieval block, delete each head of the next block, in H and O;
    every run captures both `blocks`."""
    retrieval_block, next_block = blocks
    screen = Screen(next_block)
    for family in lab.main:
        native = lab.native(family, blocks)
        donor = native["D"].activations[retrieval_block].residual_before[:, -1]
        background = [residual_patch(retrieval_block, donor)]
        hybrid = lab.run_case(family, "R", "screen.H", background, capture_blocks=blocks)
        lab.checks[f"transplant:{family.family_id}"] = same(
            hybrid[0].activations[retrieval_block].residual_used[:, -1], donor)
        screen.effects += screen_heads(lab, family, "R", screen, "H", hybrid, background)
        screen.effects += screen_heads(lab, family, "O", screen, "O",
                                       (native["O"], lab.observation(family, "native.O")), [])
    for context in ("H", "O"):
        screen.summarise(context, lab.screened_heads)
    survivors = sum(lab.observation(f, screen.condition("O", h)).predicts("L")
                    for f in lab.main for h in lab.screened_heads)
    return MainScreen(screen, survivors, len(lab.main) * len(lab.screened_heads))
