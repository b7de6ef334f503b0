"""A `tokenizer_only` hub test of a CPU-run model (GPT-2) needs its tokenizer files, not weights."""
from __future__ import annotations

import pytest

from harness.models import resources
from harness.claims import claim
from harness.criteria import Exact
from harness.registry import get_profile

GPT2 = get_profile("published").models["patching"]


@pytest.fixture
def weightless_cache(monkeypatch):
    """A cache with GPT-2's config and tokenizer but no weights, and no hub."""
    monkeypatch.setattr(resources, "in_hf_cache",
                        lambda hf_id, revision, name: name in ("config.json", "tokenizer_config.json"))
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)


def test_a_tokenizer_only_hub_test_runs_where_a_cpu_models_weights_are_missing(weightless_cache):
    assert "no weights" in resources.published_reason(GPT2, "hub")
    assert resources.published_reason(GPT2, "hub", tokenizer_only=True) is None


def test_a_tokenizer_only_test_still_needs_the_tokenizer(monkeypatch):
    monkeypatch.setattr(resources, "in_hf_cache", lambda hf_id, revision, name: False)
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)
    reason = resources.published_reason(GPT2, "hub", tokenizer_only=True)
    assert "not in the Hugging Face cache" in reason


@pytest.mark.parametrize("needs", ["cpu", "gpu"])
def test_tokenizer_only_is_refused_outside_hub(needs):
    with pytest.raises(ValueError, match="tokenizer_only"):
        claim("patching.x", kind="anchor", section="s", statement="s", published={},
              provenance="p", criterion=Exact("x"), needs=needs, tokenizer_only=True)


LLAMA = get_profile("published").models["lookback"]


@pytest.fixture
def cold_cache(monkeypatch):
    """Nothing cached, and no hub."""
    monkeypatch.setattr(resources, "in_hf_cache", lambda hf_id, revision, name: False)
    monkeypatch.setattr(resources, "hub_reachable", lambda: False)


def test_a_token_stored_by_hf_auth_login_counts_for_a_gated_model(cold_cache, monkeypatch, tmp_path):
    from huggingface_hub import constants

    stored = tmp_path / "token"
    stored.write_text("hf_stored_token")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(stored))
    assert "gated" not in resources.weights_reason(LLAMA)


def test_without_a_token_a_gated_model_names_both_ways_to_log_in(cold_cache, monkeypatch, tmp_path):
    from huggingface_hub import constants

    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(tmp_path / "none"))
    reason = resources.weights_reason(LLAMA)
    assert "hf auth login" in reason and "HF_TOKEN" in reason
