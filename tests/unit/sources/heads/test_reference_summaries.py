"""Seed 001's reference summaries (issue 49) on made-up families that differ: the reference's
bootstrap, block rule, ranking and lone wins equal the studies' exactly, and a screen summarising
another aggregate or with another seed is told apart."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.reference import compare
from harness.sources.heads import reference_summaries as ref
from harness.sources.heads.against_reference import screen_rows
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.screens import HeadEffect, Screen
from harness.sources.heads.sweep import select_block
from harness.sources.heads.task import MAIN, generate_family

FINITE = st.floats(-1.0, 1.0, allow_nan=False, width=32)


@given(st.lists(FINITE, min_size=1, max_size=12), st.integers(0, 2**32 - 1))
def test_the_bootstrap_is_the_studies(values, seed):
    b = bootstrap_mean(values, seed, 200)
    assert ref.bootstrap(values, seed, 200) == [b.mean, *b.ci95, b.n_families]


def test_a_family_without_a_value_makes_the_summary_nan():
    assert np.isnan(ref.bootstrap([1.0, float("nan")], 1)[:3]).all()


@given(st.dictionaries(st.integers(0, 35), st.tuples(st.floats(0, 1), st.floats(0, 1)), max_size=8))
def test_the_block_rule_is_the_sweeps(means):
    stats = {b: {"L": BootstrapMean(L, (L, L), 8), "D": BootstrapMean(D, (D, D), 8)}
             for b, (L, D) in means.items()}
    assert ref.block_rule({b: {"L": L, "D": D} for b, (L, D) in means.items()}) == select_block(stats)


FAMILIES = [generate_family(MAIN, i) for i in range(5)]


def screen(losses: list[list[float]]) -> Screen:
    """A screen at block 2 of per-family (rows) per-head (columns) losses in context O."""
    s = Screen(2)
    s.effects = [HeadEffect(FAMILIES[i].family_id, "O", h, loss, -loss, True, loss < 0.5)
                 for i, row in enumerate(losses) for h, loss in enumerate(row)]
    s.summarise("O", range(len(losses[0])))
    return s


@given(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5]), min_size=3, max_size=3),
                min_size=1, max_size=5))
def test_the_ranking_choice_and_lone_wins_are_the_screens(losses):
    s = screen(losses)
    means = {h: float(s.values("O", h).mean()) for h in range(3)}
    order, top = ref.ranked(means)
    assert order == s.ranking("O") and top == s.top("O")
    rows = [dict(enumerate(row)) for row in losses]
    assert ref.lone_wins(rows, order[0]) == s.unique_wins("O", [0, 1, 2], order[0])


LOSSES = [[0.1, 0.9], [0.4, 0.2], [0.35, 0.7], [0.8, 0.05], [0.2, 0.6]]


def rows_of(s: Screen) -> tuple[dict, dict]:
    """The screen's rows beside the reference's, the reference re-running families 0, 2 and 4
    (`sampled` of five) and reading the others from the study's record."""
    redone = {h: {FAMILIES[i].family_id: [LOSSES[i][h], -LOSSES[i][h], True, LOSSES[i][h] < 0.5]
                  for i in (0, 2, 4)} for h in (0, 1)}
    study: dict = {}
    want: dict = {}
    screen_rows(s, "O", 2, [0, 1], FAMILIES, redone, study, want)
    return study, want


def test_a_screen_agrees_with_the_reference_on_families_that_differ():
    study, want = rows_of(screen(LOSSES))
    assert compare("screen", study, want).mismatches == []


@pytest.mark.parametrize("aggregate", [np.median, lambda v: v[:1]], ids=["median", "first family"])
def test_another_aggregate_of_families_that_differ_is_a_mismatch(monkeypatch, aggregate):
    s = screen(LOSSES)
    wrong = {h: {m: bootstrap_mean(np.atleast_1d(aggregate(s.values("O", h, m))), ref.SCREEN_SEED,
                                   ref.SCREEN_DRAWS) for m in ("loss_pL", "loss_margin")}
             for h in (0, 1)}
    s.summary["O"] = wrong
    study, want = rows_of(s)
    assert compare("screen", study, want).mismatches


def test_another_seed_on_families_that_differ_is_a_mismatch():
    s = screen(LOSSES)
    s.summary["O"] = {h: {m: bootstrap_mean(s.values("O", h, m), ref.PAIRED_SEED, ref.SCREEN_DRAWS)
                          for m in ("loss_pL", "loss_margin")} for h in (0, 1)}
    study, want = rows_of(s)
    assert compare("screen", study, want).mismatches
