"""Issue 36: seed 001's key/value groups on the heads organism. heads.kv-groups crosses O's
attention with a foreign value bank at query heads whose KV group the wrong mappings disagree
on, against a plain transformers forward; a crossing into the wrong group fails it, while
heads.av-identity (the run's own values) cannot tell."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from harness import breakage_edit
from harness.models.handle import Loaded
from harness.models.loaded import load
from harness.registry import get_profile, source
from harness.sources.heads.anchors import groups
from harness.sources.heads.breakages import BREAKAGES
from harness.sources.heads.forward import run_forward
from harness.sources.heads.task import Family, problem_sets, render, single_token_filter

WRONG_GROUP = "value crossing into the wrong KV group"


@pytest.fixture(scope="module")
def model() -> Loaded:
    return load(get_profile("tiny").models["heads"])


@pytest.fixture(scope="module")
def family(model: Loaded) -> Family:
    family = problem_sets(single_token_filter(model.tok)).main[0]
    run_forward(model, render(family.O, model.tok).input_ids)  # nnsight's hooks in, as the lab does
    return family


def test_the_organism_groups_its_query_heads(model):
    config = model.hf.config
    n_rep = config.num_attention_heads // config.num_key_value_heads
    assert config.num_key_value_heads < config.num_attention_heads
    assert groups.kv_head_of(config) == [h // n_rep for h in range(config.num_attention_heads)]


def test_the_checked_heads_are_where_the_mappings_disagree(model):
    config = model.hf.config
    kv, n_kv = groups.kv_head_of(config), config.num_key_value_heads
    heads = groups.disagreeing_heads(config)
    assert heads == [1, 4]
    assert sorted(kv[h] for h in heads) == list(range(n_kv))  # every KV group
    assert all(kv[h] != h % n_kv for h in heads)               # tiling puts them elsewhere
    assert any(kv[h] != 0 for h in heads)                      # so does a fixed group 0


def test_the_reference_follows_the_kv_head_it_is_given(model, family):
    ids = render(family.O, model.tok).input_ids
    bank = groups.donor_bank(groups.plain_values(model, render(family.D, model.tok).input_ids,
                                                 [3])[3], 3)
    right, _ = groups.reference_crossing(model, ids, 3, 4, 1, bank)
    wrong, _ = groups.reference_crossing(model, ids, 3, 4, 0, bank)
    assert not right.equal(wrong)


def test_the_crossing_equals_the_plain_forward_exactly(model, family):
    checks = groups.kv_groups(model, family)
    assert checks.failed == []
    assert checks.n == 4 + 4 * 2 * 3  # values per block; Z, logits and moved per block and head


def test_a_crossing_into_the_wrong_group_fails_kv_groups_but_not_av_identity(model, family,
                                                                              tmp_path: Path):
    breakage = next(b for b in BREAKAGES if b.name == WRONG_GROUP)
    assert breakage.part is breakage_edit.Part.WRITE
    with breakage_edit.broken(breakage, tmp_path, source("heads").package):
        fresh = importlib.import_module("harness.sources.heads.anchors.groups")
        failed = fresh.kv_groups(model, family).failed
        own = importlib.import_module(
            "harness.sources.heads.anchors.machinery").av_identity(model, family).failed
    assert {f"Z:{b}.{h}" for b in range(4) for h in (1, 4)} <= set(failed), failed
    # 3.4, the diffuse head, is the one checked head whose o_proj columns are not zero
    assert "logits:3.4" in failed, failed
    assert own == [], own
