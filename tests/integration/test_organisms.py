"""The committed organisms: their hashes, their competence as measured, and re-training."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.models.loaded import load
from harness.organisms.__main__ import trainable
from harness.organisms.common import read_manifest, sha256_of, weights_path
from harness.registry import get_profile, source
from tests.paths import ROOT

# A re-training on other CPU kernels follows another float trajectory: its rates, measured over
# 28–200 prompts, may land a few prompts apart, never more than this (absolute, on each rate).
COMPETENCE_TOLERANCE = 0.05
NAMES = sorted(trainable())
# The least accuracy each organism needs for its studies to see a mechanism, as its organism
# module declares it (COMPETENCE_FLOORS), on rates its manifest records.
COMPETENCE_FLOORS = {name: floors for name in NAMES
                     if (floors := getattr(source(name).part("organism"), "COMPETENCE_FLOORS", None))}


def manifest_of(name: str) -> dict:
    """Source `name`'s organism manifest, from the source's organisms folder."""
    return read_manifest(trainable()[name], source(name).organisms_dir)


@pytest.mark.parametrize("name", NAMES)
def test_weights_match_the_manifest_hash(name):
    weights = weights_path(trainable()[name], source(name).organisms_dir)
    assert sha256_of(weights) == manifest_of(name)["sha256"]


@pytest.mark.parametrize("name", NAMES)
def test_manifest_records_how_it_was_made(name):
    manifest = manifest_of(name)
    for key in ("config", "recipe", "data", "sha256", "vocab_size", "threads", "torch",
                "aten_cpu_capability"):
        assert key in manifest


@pytest.mark.meta  # re-measures every organism: `make test-meta`
@pytest.mark.parametrize("name", NAMES)
def test_measured_rates_are_as_its_manifest_records(name):
    model = load(get_profile("tiny").models[name])
    measures = source(name).part("organism").MEASURES
    assert measures, f"{name}'s organism declares no MEASURES"
    for key, measure in measures.items():
        assert measure(model.hf, model.tok) == manifest_of(name)[key], key


@pytest.mark.parametrize("name", sorted(COMPETENCE_FLOORS))
def test_the_organism_answers_well_enough_for_its_studies(name):
    measured = rates(name, manifest_of(name))
    low = {k: measured[k] for k, floor in COMPETENCE_FLOORS[name].items() if measured[k] < floor}
    assert not low, f"{name} below its floors {COMPETENCE_FLOORS[name]}: {low}"


def env_under(capability: str | None, mkl_branch: str = "") -> dict[str, str]:
    """This environment, asking ATen for `capability` (None: this CPU's own) and MKL for its
    reproducible branch `mkl_branch` ("": the organisms command's default)."""
    env = {k: v for k, v in os.environ.items() if k not in ("ATEN_CPU_CAPABILITY", "MKL_CBWR")}
    return env | ({"ATEN_CPU_CAPABILITY": capability.lower()} if capability else {}) | (
        {"MKL_CBWR": mkl_branch} if mkl_branch else {})


def capability_under(requested: str | None) -> str:
    """The ATen CPU capability torch runs with when asked for `requested` (None: this CPU's own)."""
    return subprocess.run([sys.executable, "-c", "import torch; print(torch.backends.cpu."
                           "get_cpu_capability())"], env=env_under(requested), capture_output=True,
                          text=True, check=True).stdout.strip()


# ATen's x86 CPU capabilities, each needing the instructions of the ones before it.
CAPABILITIES = ("DEFAULT", "AVX2", "AVX512")


def has_capability(wanted: str) -> bool:
    """Whether this CPU can run under `wanted`: asking torch for it is not enough, since torch
    reports a capability it was asked for even where the CPU lacks it (and dies of SIGILL)."""
    own = capability_under(None)
    if wanted in CAPABILITIES and own in CAPABILITIES:
        return CAPABILITIES.index(wanted) <= CAPABILITIES.index(own)
    return wanted == own


def retrain(name: str, root: Path, capability: str | None, mkl_branch: str = "") -> dict:
    """Re-train `name` in a subprocess under `capability` (None: this CPU's own) and MKL's
    `mkl_branch`; its manifest."""
    env = env_under(capability, mkl_branch)
    subprocess.run([sys.executable, "-m", "harness.organisms", name, "--root", str(root)],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return read_manifest(trainable()[name], root)


@pytest.fixture(scope="module")
def retrained(tmp_path_factory):
    """One re-training per organism: under its recorded capability where this CPU has it."""
    done: dict[str, tuple[str | None, dict]] = {}

    def get(name: str) -> tuple[str | None, dict]:
        if name not in done:
            manifest = manifest_of(name)
            recorded = manifest["aten_cpu_capability"]
            under = recorded if has_capability(recorded) else None
            done[name] = (under, retrain(name, tmp_path_factory.mktemp(name), under,
                                         manifest.get("mkl_cbwr", "")))
        return done[name]

    return get


def rates(name: str, manifest: dict) -> dict[str, float]:
    """Every rate `name`'s organism measures and its manifest records, flattened to dotted keys."""
    flat = {}
    for key in source(name).part("organism").MEASURES:
        value = manifest.get(key)
        for sub, rate in (value.items() if isinstance(value, dict) else [("", value)]):
            if rate is not None:
                flat[f"{key}.{sub}" if sub else key] = rate
    return flat


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_retraining_under_the_recorded_kernels_is_bit_identical(name, retrained):
    recorded = manifest_of(name)
    under, fresh = retrained(name)
    if under is None:
        pytest.skip(f"{name} was trained under ATen CPU capability "
                    f"{recorded['aten_cpu_capability']}, which this CPU lacks (it runs "
                    f"{capability_under(None)}); bit-identity can be checked only where it exists")
    if not recorded.get("mkl_cbwr"):
        pytest.skip(f"{name}'s manifest records no MKL branch (MKL_CBWR): it was trained while MKL "
                    "chose its matrix-multiply kernels by the CPU, which the ATen capability does "
                    "not fix, so its bytes reproduce only on a CPU like the training machine's; "
                    f"`interp-claims organisms {name}` re-trains it on MKL's reproducible branch "
                    "and records it")
    assert fresh["torch"] == recorded["torch"], "bit-identity also needs the recorded torch"
    assert fresh["mkl_cbwr"] == recorded["mkl_cbwr"], "bit-identity also needs MKL's branch"
    assert fresh["sha256"] == recorded["sha256"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_retraining_on_any_cpu_reaches_the_recorded_competence(name, retrained):
    expected = rates(name, manifest_of(name))
    measured = rates(name, retrained(name)[1])
    assert expected and measured.keys() == expected.keys()
    far = {k: (expected[k], measured[k]) for k in expected
           if abs(measured[k] - expected[k]) > COMPETENCE_TOLERANCE}
    assert not far, f"rates beyond ±{COMPETENCE_TOLERANCE}: {far}"


@pytest.mark.meta  # a process of its own: make test-meta
def test_a_manifest_records_the_kernels_it_was_trained_under():
    from harness.organisms.common import training_environment

    env = training_environment()
    assert env["aten_cpu_capability"] == capability_under(os.environ.get("ATEN_CPU_CAPABILITY"))
    assert env["mkl_cbwr"] == os.environ.get("MKL_CBWR", "")
    assert env["torch"].startswith("2.13.0")
