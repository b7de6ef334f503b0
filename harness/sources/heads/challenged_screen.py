"""Seed 001 §5: the next block's deletion screen with the retrieval head's crossed message fixed."""
from __future__ import annotations

from dataclasses import dataclass

from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.crossings import FirstCrossing
from harness.sources.heads.observations import SCREEN_RESAMPLES, SCREEN_SEED, HeadsLab
from harness.sources.heads.patches import head_output_patch, same
from harness.sources.heads.screens import MainScreen, Screen, screen_heads


@dataclass
class ChallengedScreen:
    """§5: the next block's deletions in O with the retrieval head's crossed message fixed (X)."""

    screen: Screen
    support_head: int
    runner_up: int
    gap: BootstrapMean
    unique_wins: int
    ranking: list[tuple[int, BootstrapMean]]
    top: int | None  # the screen's winner; None on a tie


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
    ranking = screen.ranking("X")
    support, runner_up = ranking[0], ranking[1]
    gap = bootstrap_mean(screen.values("X", support) - screen.values("X", runner_up),
                         SCREEN_SEED, SCREEN_RESAMPLES)
    wins = screen.unique_wins("X", lab.screened_heads, support)
    return ChallengedScreen(screen, support, runner_up, gap, wins,
                            [(h, screen.summary["X"][h]["loss_pL"]) for h in ranking],
                            screen.top("X"))
