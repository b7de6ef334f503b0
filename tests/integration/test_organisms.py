"""The committed organisms: their hashes, their competence as measured, and bit-identical re-training."""
from __future__ import annotations

import pytest

from harness.experiments.cot_runner import CotRunner
from harness.models import load
from harness.organisms import cot as cot_organism
from harness.organisms import heads as heads_organism
from harness.organisms import lookback as lookback_organism
from harness.organisms import patching as patching_organism
from harness.organisms.common import read_manifest, sha256_of, weights_path
from harness.profiles import TINY
from harness.tasks.arithmetic import solution


@pytest.mark.parametrize("name", ["cot", "heads", "lookback", "patching"])
def test_weights_match_the_manifest_hash(name):
    assert sha256_of(weights_path(name)) == read_manifest(name)["sha256"]


@pytest.mark.parametrize("name", ["cot", "heads", "lookback", "patching"])
def test_manifest_records_how_it_was_made(name):
    manifest = read_manifest(name)
    for key in ("config", "recipe", "data", "sha256", "vocab_size", "threads"):
        assert key in manifest


def test_cot_organism_solves_all_28_problems():
    from harness.experiments.text import parse_answer

    runner = CotRunner(load(TINY.models["cot"]), TINY.sizes["cot"])
    answers = {}
    for p in cot_organism.training_problems():
        gen = runner.generate(runner.prompt_ids(p), 400)
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        answers[p] = parse_answer(runner.decode(gen[close:])) if close is not None else None
    wrong = {p: a for p, a in answers.items() if a != solution(p)}
    assert len(answers) == 28 and not wrong


def test_patching_organism_prefers_the_indirect_object():
    model = load(TINY.models["patching"])
    measured = patching_organism.io_preference(model.hf, model.tok)
    assert measured == read_manifest("patching")["io_preference"]
    assert measured > 0.9


def test_lookback_competence_is_as_its_manifest_records():
    model = load(TINY.models["lookback"])
    assert lookback_organism.competence(model.hf, model.tok) == read_manifest("lookback")["competence"]


def test_lookback_scaffold_heads_attend_as_its_manifest_records():
    model = load(TINY.models["lookback"])
    measured = lookback_organism.scaffold_attention(model.hf, model.tok)
    assert measured == read_manifest("lookback")["scaffold_attention"]


def test_heads_lookup_accuracy_is_as_its_manifest_records():
    model = load(TINY.models["heads"])
    assert heads_organism.competence(model.hf, model.tok) == read_manifest("heads")["competence"]


def test_heads_organism_shares_kv_heads_across_query_heads():
    config = load(TINY.models["heads"]).hf.config
    assert config.num_key_value_heads < config.num_attention_heads
    assert config._attn_implementation == "eager"


@pytest.mark.slow
@pytest.mark.parametrize("module", [cot_organism, heads_organism, lookback_organism,
                                    patching_organism],
                         ids=["cot", "heads", "lookback", "patching"])
def test_retraining_is_bit_identical(module, tmp_path):
    manifest = module.make(root=tmp_path)
    assert manifest["sha256"] == read_manifest(module.NAME)["sha256"]
