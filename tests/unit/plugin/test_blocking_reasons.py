"""Why a test cannot run its published form here (harness/plugin/blocking.py's resource_reason):
the profile's rules, the machine's CUDA and Hugging Face cache, --model, and NDIF."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from harness.claims import ClaimSpec, Kind, Needs
from harness.criteria import Exact
from harness.models import resources
from harness.models.backends import Backend
from harness.plugin import blocking
from harness.plugin.blocking import ndif_reason, resource_reason
from harness.plugin.state import SESSION, ClaimsSession
from harness.profiles import Mode, ModelSpec, Profile, ProfileName

ON_CUDA = ModelSpec(architecture="llama", dtype="bfloat16", device="cuda", hf_id="org/big",
                    revision="0123456789abcdef0123456789abcdef01234567")
ON_CPU = ModelSpec(architecture="gpt2", dtype="float32", device="cpu", hf_id="org/small",
                   revision="fedcba9876543210fedcba9876543210fedcba98")
ORGANISM = ModelSpec(architecture="gpt2", dtype="float32", device="cpu", organism="patching")


def fake_item(profile: str, models: dict[str, ModelSpec], backend: Backend = Backend.LOCAL,
              retarget: dict[str, str] | None = None) -> SimpleNamespace:
    """A stand-in for a pytest item of a session on `profile` with these models."""
    session = ClaimsSession(profile=Profile(name=ProfileName(profile), models=models),
                            mode=Mode.FAITHFUL, backend=backend, retarget_reasons=retarget or {})
    return SimpleNamespace(config=SimpleNamespace(stash={SESSION: session}))


def spec(source: str = "cot", needs: str = "gpu", tokenizer_only: bool = False) -> ClaimSpec:
    return ClaimSpec(id=f"{source}.x", kind=Kind.MEASUREMENT, section="1", statement="s",
                     published={}, provenance="p", criterion=Exact("v"), needs=Needs(needs),
                     tokenizer_only=tokenizer_only)


@pytest.fixture
def cached(monkeypatch) -> set[str]:
    """A machine without CUDA or the hub, whose Hugging Face cache holds the files named here."""
    files: set[str] = set()
    monkeypatch.setattr(resources, "cuda_reason", lambda: "no CUDA device")
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)
    monkeypatch.setattr(resources, "in_hf_cache", lambda hf_id, revision, name: name in files)
    return files


EVERYTHING = {"config.json", "tokenizer_config.json", "model.safetensors"}


def test_the_tiny_profile_runs_every_test(cached):
    assert resource_reason(fake_item("tiny", {"cot": ORGANISM}), spec()) is None


def test_a_model_free_test_runs_on_the_published_profile_without_its_model(cached):
    assert resource_reason(fake_item("published", {}), spec(needs="cpu")) is None


def test_a_gpu_test_skips_without_cuda_on_the_published_profile(cached):
    cached |= EVERYTHING
    assert resource_reason(fake_item("published", {"cot": ON_CUDA}), spec()) == "no CUDA device"


def test_the_rehearsal_runs_a_gpu_test_without_cuda(cached):
    cached |= EVERYTHING
    assert resource_reason(fake_item("rehearsal", {"cot": ON_CUDA}), spec()) is None


def test_a_tokenizer_only_test_needs_only_the_tokenizer(cached):
    cached.add("tokenizer_config.json")
    item = fake_item("published", {"cot": ON_CPU})
    assert resource_reason(item, spec(needs="hub", tokenizer_only=True)) is None
    assert "org/small" in resource_reason(item, spec(needs="hub"))


def test_a_profile_without_the_sources_model_says_so(cached):
    assert resource_reason(fake_item("published", {}), spec()) == (
        "the published profile has no model for source 'cot'")


def test_a_source_that_model_could_not_take_skips_saying_why(cached):
    item = fake_item("published", {"cot": ON_CUDA}, retarget={"cot": "no such model"})
    assert resource_reason(item, spec(needs="cpu")) == "no such model"


@pytest.fixture
def ndif(monkeypatch) -> list[str | None]:
    """NDIF serving every model it is asked about; the models asked about, in order."""
    asked: list[str | None] = []

    def serves(repo_id: str | None) -> str | None:
        asked.append(repo_id)
        return None if repo_id else "NDIF runs hub models only"

    monkeypatch.setattr(blocking, "ndif_skip_reason", serves)
    return asked


def on_ndif(models: dict[str, ModelSpec], retarget: dict[str, str] | None = None
            ) -> SimpleNamespace:
    return fake_item("published", models, backend=Backend.NDIF, retarget=retarget)


def test_ndif_skips_a_source_whose_experiments_run_outside_traces(ndif):
    assert ndif_reason(on_ndif({"cot": ON_CUDA}).config, "cot") == (
        "source cot's experiments read the model outside traces (plain-PyTorch forwards), "
        "which a model on NDIF cannot serve")


def test_ndif_is_asked_about_the_profiles_model(ndif, cached):
    cached |= EVERYTHING
    assert resource_reason(on_ndif({"patching": ON_CPU}), spec("patching")) is None
    assert ndif == ["org/small"]


def test_ndif_is_asked_once_per_source(ndif):
    config = on_ndif({"patching": ON_CPU}).config
    ndif_reason(config, "patching")
    ndif_reason(config, "patching")
    assert ndif == ["org/small"]


def test_each_source_keeps_its_own_ndif_reason(ndif):
    config = on_ndif({"cot": ON_CUDA, "patching": ON_CPU}).config
    assert ndif_reason(config, "cot") is not None
    assert ndif_reason(config, "patching") is None


def test_ndif_is_asked_without_a_model_where_the_profile_has_none(ndif):
    assert ndif_reason(on_ndif({}).config, "patching") == "NDIF runs hub models only"
    assert ndif == [None]


def test_ndif_says_why_it_cannot_serve_before_a_retarget_reason(ndif):
    item = on_ndif({"lookback": ORGANISM}, retarget={"lookback": "no such model"})
    assert resource_reason(item, spec("lookback")) == "NDIF runs hub models only"


def test_a_source_ndif_serves_but_model_could_not_take_skips_saying_why(ndif, cached):
    cached |= EVERYTHING
    item = on_ndif({"patching": ON_CPU}, retarget={"patching": "no such model"})
    assert resource_reason(item, spec("patching")) == "no such model"


def test_ndif_needs_the_models_tokenizer_here(ndif, cached):
    cached.add("config.json")
    reason = resource_reason(on_ndif({"patching": ON_CPU}), spec("patching"))
    assert reason == ("org/small@fedcba9… is not in the Hugging Face cache and the hub is "
                      "unreachable")


def test_ndif_needs_the_models_config_here(ndif, cached):
    cached.add("tokenizer_config.json")
    assert resource_reason(on_ndif({"patching": ON_CPU}), spec("patching")) is not None
