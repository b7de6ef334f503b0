"""The committed organisms: their hashes, their competence as measured, and re-training."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.sources.cot.runner import CotRunner
from harness.models import load
from harness.sources.cot import organism as cot_organism
from harness.sources.heads import organism as heads_organism
from harness.sources.lookback import organism as lookback_organism
from harness.sources.patching import organism as patching_organism
from harness.organisms.__main__ import trainable
from harness.organisms.common import read_manifest, sha256_of, weights_path
from harness.profiles import get_profile
from harness.sources.cot.task import solution
from tests.paths import ROOT

# Each manifest key that holds rates measured on the organism (competence, attention, preference).
MEASURE_KEYS = ("competence", "scaffold_attention", "io_preference")
# A re-training on other CPU kernels follows another float trajectory: its rates, measured over
# 28–200 prompts, may land a few prompts apart, never more than this (absolute, on each rate).
COMPETENCE_TOLERANCE = 0.05
NAMES = sorted(trainable())
TINY = get_profile("tiny")


@pytest.mark.parametrize("name", NAMES)
def test_weights_match_the_manifest_hash(name):
    assert sha256_of(weights_path(name)) == read_manifest(name)["sha256"]


@pytest.mark.parametrize("name", NAMES)
def test_manifest_records_how_it_was_made(name):
    manifest = read_manifest(name)
    for key in ("config", "recipe", "data", "sha256", "vocab_size", "threads", "torch",
                "aten_cpu_capability"):
        assert key in manifest


def test_cot_organism_solves_all_28_problems():
    from harness.sources.cot.text import parse_answer

    runner = CotRunner(load(TINY.models["cot"]), TINY.sizes["cot"])
    answers = {}
    for p in cot_organism.training_problems():
        gen = runner.generate(runner.prompt_ids(p), 400)
        close = gen.index(runner.think_close) if runner.think_close in gen else None
        answers[p] = parse_answer(runner.decode(gen[close:])) if close is not None else None
    wrong = {p: a for p, a in answers.items() if a != solution(p)}
    assert len(answers) == 28 and not wrong


def test_cot_competence_is_as_its_manifest_records():
    model = load(TINY.models["cot"])
    assert cot_organism.competence(model.hf, model.tok) == read_manifest("cot")["competence"]


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


def env_under(capability: str | None) -> dict[str, str]:
    """This environment, asking ATen for `capability` (None: this CPU's own)."""
    env = {k: v for k, v in os.environ.items() if k != "ATEN_CPU_CAPABILITY"}
    return env | ({"ATEN_CPU_CAPABILITY": capability.lower()} if capability else {})


def capability_under(requested: str | None) -> str:
    """The ATen CPU capability torch runs with when asked for `requested` (None: this CPU's own)."""
    return subprocess.run([sys.executable, "-c", "import torch; print(torch.backends.cpu."
                           "get_cpu_capability())"], env=env_under(requested), capture_output=True,
                          text=True, check=True).stdout.strip()


def retrain(name: str, root: Path, capability: str | None) -> dict:
    """Re-train `name` in a subprocess under `capability` (None: this CPU's own); its manifest."""
    env = env_under(capability)
    subprocess.run([sys.executable, "-m", "harness.organisms", name, "--root", str(root)],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return read_manifest(name, root)


@pytest.fixture(scope="module")
def retrained(tmp_path_factory):
    """One re-training per organism: under its recorded capability where this CPU has it."""
    done: dict[str, tuple[str | None, dict]] = {}

    def get(name: str) -> tuple[str | None, dict]:
        if name not in done:
            recorded = read_manifest(name)["aten_cpu_capability"]
            under = recorded if capability_under(recorded) == recorded else None
            done[name] = (under, retrain(name, tmp_path_factory.mktemp(name), under))
        return done[name]

    return get


def rates(manifest: dict) -> dict[str, float]:
    """Every measured rate a manifest records, flattened to dotted keys."""
    flat = {}
    for key in MEASURE_KEYS:
        value = manifest.get(key)
        for sub, rate in (value.items() if isinstance(value, dict) else [("", value)]):
            if rate is not None:
                flat[f"{key}.{sub}" if sub else key] = rate
    return flat


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_retraining_under_the_recorded_kernels_is_bit_identical(name, retrained):
    recorded = read_manifest(name)
    under, fresh = retrained(name)
    if under is None:
        pytest.skip(f"{name} was trained under ATen CPU capability "
                    f"{recorded['aten_cpu_capability']}, which this CPU lacks (it runs "
                    f"{capability_under(None)}); bit-identity can be checked only where it exists")
    assert fresh["torch"] == recorded["torch"], "bit-identity also needs the recorded torch"
    assert fresh["sha256"] == recorded["sha256"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_retraining_on_any_cpu_reaches_the_recorded_competence(name, retrained):
    expected = rates(read_manifest(name))
    measured = rates(retrained(name)[1])
    assert expected and measured.keys() == expected.keys()
    far = {k: (expected[k], measured[k]) for k in expected
           if abs(measured[k] - expected[k]) > COMPETENCE_TOLERANCE}
    assert not far, f"rates beyond ±{COMPETENCE_TOLERANCE}: {far}"


def test_a_manifest_records_the_kernels_it_was_trained_under():
    from harness.organisms.common import training_environment

    env = training_environment()
    assert env["aten_cpu_capability"] == capability_under(os.environ.get("ATEN_CPU_CAPABILITY"))
    assert env["torch"].startswith("2.13.0")
