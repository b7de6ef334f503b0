"""Seed 001 §2 and §5: a screen's tie picks no head, so the studies that run at its head have
nothing to run (issue 36)."""
from __future__ import annotations

import pytest

from harness.declared_steps import NothingToRun
from harness.sources.heads import steps
from harness.sources.heads.challenged_screen import Support, ranked, support_site
from harness.sources.heads.screens import HeadEffect, Screen, chosen
from harness.sources.heads.sweep import Site

HEADS = [0, 1, 2]


def screen(context: str, losses: dict[int, list[float]], block: int = 2) -> Screen:
    """A summarised screen whose head `h` loses losses[h][i] of p(L) in family i."""
    found = Screen(block, effects=[HeadEffect(f"f{i}", context, h, loss, 0.0, True, loss < 0.5)
                                   for h, per_family in losses.items()
                                   for i, loss in enumerate(per_family)])
    found.summarise(context, list(losses))
    return found


TIED = {0: [0.0, 0.0], 1: [0.0, 0.0], 2: [0.0, 0.0]}  # a deletion that does nothing
SECOND = {0: [0.0, 0.1], 1: [0.9, 0.8], 2: [0.2, 0.0]}  # head 1 loses the most


def test_a_screen_ranks_its_tied_heads_by_index_but_picks_none():
    tied = screen("H", TIED)
    assert tied.ranking("H") == HEADS and tied.top("H") is None
    assert screen("H", SECOND).top("H") == 1


def test_a_tied_opening_screen_has_no_retrieval_head():
    assert chosen(screen("H", TIED)).retrieval_head is None
    opening = chosen(screen("H", SECOND))
    assert (opening.retrieval_head, opening.hybrid_correct_after) == (1, 0)


def test_without_a_retrieval_head_the_first_crossing_has_nothing_to_run():
    with pytest.raises(NothingToRun, match="ties at the top in H"):
        steps.first_crossing(None, Site(1, "rule"), chosen(screen("H", TIED)))


def test_a_tied_challenged_screen_has_no_support_head():
    assert ranked(screen("X", TIED), HEADS).support_head is None
    assert ranked(screen("X", SECOND), HEADS).support_head == 1


def test_without_a_support_head_content_effects_have_nothing_to_run():
    with pytest.raises(NothingToRun, match="no second site"):
        support_site(ranked(screen("X", TIED), HEADS))


def test_the_support_site_is_the_challenged_screens_winner():
    assert support_site(ranked(screen("X", SECOND), HEADS)) == Support(2, 1)
