"""Seed 001 §5: the next block's deletion screen with the retrieval head's crossed message fixed."""
from __future__ import annotations

from dataclasses import dataclass

from harness.declared_steps import NothingToRun
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.crossings import FirstCrossing
from harness.sources.heads.observations import SCREEN_RESAMPLES, SCREEN_SEED, HeadsLab
from harness.sources.heads.patches import head_output_patch, same
from harness.sources.heads.screens import MainScreen, Screen, screen_heads


@dataclass
class ChallengedScreen:
    """§5: the next block's deletions in O with the retrieval head's crossed message fixed (X)."""

    screen: Screen
    support_head: int | None  # the screen's winner, which §5–§6 run at; None on a tie
    runner_up: int            # the ranking's second; the gap and wins are the ranking's first's
    gap: BootstrapMean
    unique_wins: int
    ranking: list[tuple[int, BootstrapMean]]


@dataclass(frozen=True)
class Support:
    """§5–§6's second site: the next block's head they run at."""

    block: int
    head: int


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
    screen.summarise("X", lab.screened_heads)
    return ranked(screen, lab.screened_heads)


def ranked(screen: Screen, heads: list[int]) -> ChallengedScreen:
    """§5's reading of the summarised X screen over `heads`: its winner (None on a tie: a tie
    picks no head), and the ranking's first head's gap over the second and its unique wins."""
    ranking = screen.ranking("X")
    top, runner_up = ranking[0], ranking[1]
    gap = bootstrap_mean(screen.values("X", top) - screen.values("X", runner_up),
                         SCREEN_SEED, SCREEN_RESAMPLES)
    return ChallengedScreen(screen, screen.top("X"), runner_up, gap,
                            screen.unique_wins("X", heads, top),
                            [(h, screen.summary["X"][h]["loss_pL"]) for h in ranking])


def support_site(challenged: ChallengedScreen) -> Support:
    """§5: the challenged screen's winner, or nothing for §5–§6 to run at where it ties (a tie
    picks no head)."""
    block, head = challenged.screen.block, challenged.support_head
    if head is None:
        raise NothingToRun(f"§5's challenged screen at block {block} ties at the top, so no head "
                           "supports the crossed message: §5's content effects and §6's joint "
                           "crossing and grid have no second site")
    return Support(block, head)
