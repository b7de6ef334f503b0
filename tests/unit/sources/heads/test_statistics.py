"""Seed 001's readouts and statistics: the family bootstrap, observations and the selection rule."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from harness.criteria import CoversPublished
from harness.sources.heads.bootstrap import BootstrapMean, bootstrap_mean
from harness.sources.heads.observations import Observation, compose_head_message, repeat_kv
from harness.sources.heads.screens import HeadEffect, Screen
from harness.sources.heads.sweep import ResidualSweep, Site, select_block, site_for


def test_bootstrap_is_reproducible_from_its_seed():
    values = [0.1, 0.4, 0.35, 0.8, 0.05]
    assert bootstrap_mean(values, 31001) == bootstrap_mean(values, 31001)


def test_bootstrap_resamples_families_with_default_rng():
    values = np.array([0.0, 1.0, 2.0, 3.0])
    idx = np.random.default_rng(7).integers(4, size=(100, 4))
    lo, hi = np.quantile(values[idx].mean(axis=1), [0.025, 0.975])
    assert bootstrap_mean(values, 7, resamples=100).ci95 == (lo, hi)


def test_bootstrap_of_a_constant_has_a_point_interval():
    assert bootstrap_mean([0.5] * 8, 1) == BootstrapMean(0.5, (0.5, 0.5), 8)


def test_bootstrap_refuses_non_finite_values():
    with pytest.raises(AssertionError):
        bootstrap_mean([0.1, float("nan")], 1)


def test_format_has_five_decimals():
    assert BootstrapMean(0.187414, (0.025141, 0.432684), 8).format() == "0.18741 [0.02514, 0.43268]"


def observation(logits: list[float], top_tied: list[int]) -> Observation:
    return Observation("main", "f", "native.O", "O", {"L": "A", "C": "B", "D": "C"},
                       [10, 11, 12], ["A", "B", "C"], logits, math.log(sum(map(math.exp, logits))),
                       top_tied[0], top_tied, [])


def test_probability_uses_the_full_vocabulary_logsumexp():
    obs = observation([2.0, 1.0, 0.0], [10])
    assert obs.probability("L") == pytest.approx(math.exp(2) / (math.exp(2) + math.e + 1))


def test_margin_is_a_logit_difference():
    assert observation([2.0, 1.0, 0.0], [10]).margin("C", "L") == -1.0


def test_a_tie_is_not_a_prediction():
    assert not observation([2.0, 2.0, 0.0], [10, 11]).predicts("L")


def test_top_label_names_a_token_outside_the_candidates():
    assert observation([2.0, 1.0, 0.0], [99]).top_label() == "vocabulary token 99"


def stats(**means: tuple[float, float]) -> dict:
    return {int(b[1:]): {"L": BootstrapMean(lm, (lm, lm), 8), "D": BootstrapMean(dm, (dm, dm), 8)}
            for b, (lm, dm) in means.items()}


def test_the_rule_picks_the_latest_eligible_block():
    assert select_block(stats(b0=(0.9, 0.1), b1=(0.5, 0.3), b2=(0.3, 0.25))) == 1


def test_the_rule_may_pick_nothing():
    assert select_block(stats(b0=(0.2, 0.0), b1=(0.5, 0.45))) is None


def sweep_choosing(block: int | None) -> ResidualSweep:
    return ResidualSweep(stats={}, retrieval_block=block, donor_residuals={})


def test_later_studies_run_at_the_rules_block():
    assert site_for(sweep_choosing(1), n_blocks=4, smoke_block=2) == Site(1, "rule")


def test_the_rules_last_block_leaves_no_next_block_so_the_smoke_block_serves():
    assert site_for(sweep_choosing(3), n_blocks=4, smoke_block=2) == Site(2, "smoke-test block")


def test_without_a_smoke_block_no_rule_block_means_no_site():
    assert site_for(sweep_choosing(None), n_blocks=4, smoke_block=None) is None


def test_repeat_kv_shares_each_value_bank_across_its_query_group():
    values = torch.arange(2 * 3 * 4, dtype=torch.float32).reshape(1, 2, 3, 4)
    repeated = repeat_kv(values, 6)
    assert repeated.shape == (1, 6, 3, 4)
    assert torch.equal(repeated[0, 2], values[0, 0]) and torch.equal(repeated[0, 3], values[0, 1])


def test_composing_with_the_own_values_is_the_head_output():
    torch.manual_seed(0)
    attention = torch.softmax(torch.randn(1, 4, 5, 5), -1)
    values = torch.randn(1, 5, 2, 3)
    outputs = (attention @ repeat_kv(values.transpose(1, 2), 4)).transpose(1, 2)
    assert torch.equal(compose_head_message(attention, values, values, 3), outputs[:, -1, 3])


def test_label_only_crossing_changes_only_the_chosen_position():
    attention = torch.zeros(1, 2, 3, 3)
    attention[0, :, -1, 1] = 1.0
    values, donor = torch.zeros(1, 3, 1, 2), torch.ones(1, 3, 1, 2)
    assert torch.equal(compose_head_message(attention, values, donor, 0, [1]), torch.ones(1, 2))
    assert torch.equal(compose_head_message(attention, values, donor, 0, [0]), torch.zeros(1, 2))


def test_covers_published_reads_the_measured_interval():
    check = CoversPublished("m", "m_ci")
    assert check.judge({"m": 0.6, "m_ci": [0.5, 0.7]}, {"m": 0.646}).ok
    assert not check.judge({"m": 0.2, "m_ci": [0.1, 0.3]}, {"m": 0.646}).ok


def test_unique_wins_count_the_families_a_head_alone_tops_among_the_screened_heads():
    losses = {"f0": {0: 0.1, 7: 0.5, 15: 0.2}, "f1": {0: 0.1, 7: 0.5, 15: 0.5},
              "f2": {0: 0.0, 7: 0.3, 15: 0.1}}
    screen = Screen(32, effects=[HeadEffect(f, "X", h, loss, 0.0, True, True)
                                 for f, by_head in losses.items() for h, loss in by_head.items()])
    assert screen.unique_wins("X", [0, 7, 15], 7) == 2
    assert screen.unique_wins("X", [0, 15], 15) == 3
